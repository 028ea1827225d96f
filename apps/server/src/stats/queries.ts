/**
 * All SQL of statistics. Reports and the dashboard read only the daily and hourly rollups; the log reads messages
 * through the indexes of migration 0009, one per filter, newest first.
 */
import { LOG_COUNT_CAP } from '@herald/shared';
import { type SelectQueryBuilder, sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { type DayWindow, type RollupPlan, rollupPlan, windowPlan } from './days.js';

export interface RollupScope {
  accountId: number;
  /** EMAIL or SMS; both when absent. */
  channel?: string;
  /** Template category: only messages whose template is in it. */
  categoryId?: number;
}

/**
 * A rollup row holds one hour or day of one bucket, far below 2^31; summing them as integers keeps PostgreSQL on its
 * int8 accumulator instead of numeric (sum of bigint), a quarter of a report's time.
 */
const sumOfCounts = sql<number>`sum(cast(r.count as integer))`;

type Dimension = 'channel' | 'config_id' | 'campaign_id' | 'status';

interface LocalDayCount {
  day: number;
  /** The values of the dimensions asked for, in their order. */
  values: (string | number)[];
  n: number;
}

const integer = (value: number | null) => (value === null ? sql`cast(null as integer)` : sql.lit(value));

/**
 * Counts per day of a plan and dimensions: the daily rollup's UTC days, each in its day, and the hourly rows of the
 * edge hours (read once, summed per hour) taken off that day and added to their own. Buckets that sum to 0 are left out.
 */
async function countsOfPlan(
  db: Db,
  scope: RollupScope,
  plan: RollupPlan,
  dimensions: readonly Dimension[],
): Promise<LocalDayCount[]> {
  const columns = (table: string) => sql.join(dimensions.map((dimension) => sql.ref(`${table}.${dimension}`)));
  const filters = [sql`r.account_id = ${scope.accountId}`];
  if (scope.channel) filters.push(sql`r.channel = ${scope.channel}`);
  if (scope.categoryId !== undefined)
    filters.push(sql`r.template_id in (select id from templates
      where account_id = ${scope.accountId} and category_id = ${scope.categoryId})`);
  const where = sql.join(filters, sql` and `);
  const tables = [];
  const parts = [];
  if (plan.days.length > 0) {
    const days = plan.days.map((day) => sql`(${integer(day.utcDay)}, ${integer(day.localDay)})`);
    tables.push(sql`utc_days (utc_day, local_day) as (values ${sql.join(days)})`);
    parts.push(sql`select d.local_day as day, ${columns('r')}, cast(r.count as integer) as n
      from message_rollup_daily r join utc_days d on r.day = d.utc_day
      where ${where} and r.day between ${integer(plan.days[0]!.utcDay)} and ${integer(plan.days.at(-1)!.utcDay)}`);
  }
  if (plan.hours.length > 0) {
    const hours = plan.hours.map((hour) => sql`(${integer(hour.hour)}, ${integer(hour.minusDay)}, ${integer(hour.plusDay)})`);
    tables.push(sql`edge_hours (hour, minus_day, plus_day) as (values ${sql.join(hours)})`);
    tables.push(sql`signs (sign) as (values (1), (-1))`);
    const dayOfSign = sql`case when s.sign = 1 then e.plus_day else e.minus_day end`;
    // Within integer like every count of one bucket: PostgreSQL then sums on its int8 accumulator, not numeric.
    parts.push(sql`select ${dayOfSign} as day, ${columns('h')}, cast(s.sign * h.n as integer) as n
      from (select r.hour, ${columns('r')}, ${sumOfCounts} as n from message_rollup r
            where ${where} and r.hour in (select hour from edge_hours) group by r.hour, ${columns('r')}) h
      join edge_hours e on e.hour = h.hour join signs s on ${dayOfSign} is not null`);
  }
  const { rows } = await sql<Record<string, string | number>>`with ${sql.join(tables)}
    select day, ${sql.join(dimensions.map((dimension) => sql.ref(dimension)))}, sum(n) as n
    from (${sql.join(parts, sql` union all `)}) counted
    group by day, ${sql.join(dimensions.map((dimension) => sql.ref(dimension)))}
    having sum(n) <> 0`.execute(db);
  return rows.map((row) => ({
    day: Number(row.day),
    values: dimensions.map((dimension) => row[dimension] as string | number),
    n: Number(row.n),
  }));
}

export interface DayCount {
  day: number;
  channel: string;
  status: string;
  n: number;
}

export async function countsByDay(db: Db, scope: RollupScope, window: DayWindow): Promise<DayCount[]> {
  const rows = await countsOfPlan(db, scope, rollupPlan(window), ['channel', 'status']);
  return rows.map(({ day, values: [channel, status], n }) => ({ day, channel: String(channel), status: String(status), n }));
}

export interface BucketCount {
  configId: number;
  campaignId: number;
  status: string;
  n: number;
}

/** Counts of the whole window per config, campaign and status: edge hours only at the window's two ends. */
export async function windowCounts(db: Db, scope: RollupScope, window: DayWindow): Promise<BucketCount[]> {
  // In the order of the report index's columns after the hour, so each hour's rows come grouped already.
  const rows = await countsOfPlan(db, scope, windowPlan(window), ['status', 'config_id', 'campaign_id']);
  return rows.map(({ values: [status, configId, campaignId], n }) => ({
    configId: Number(configId),
    campaignId: Number(campaignId),
    status: String(status),
    n,
  }));
}

export async function configNames(db: Db, accountId: number, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('provider_configs')
    .select(['id', 'name'])
    .where('account_id', '=', accountId)
    .where('id', 'in', ids)
    .execute();
  return new Map(rows.map((row) => [Number(row.id), row.name]));
}

export async function campaignNames(db: Db, accountId: number, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('campaigns')
    .select(['id', 'name'])
    .where('account_id', '=', accountId)
    .where('id', 'in', ids)
    .execute();
  return new Map(rows.map((row) => [Number(row.id), row.name]));
}

export async function categoryExists(db: Db, accountId: number, categoryId: number): Promise<boolean> {
  const row = await db
    .selectFrom('template_categories')
    .select('id')
    .where('account_id', '=', accountId)
    .where('id', '=', categoryId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function runningCampaigns(db: Db, accountId: number): Promise<number> {
  const row = await db
    .selectFrom('campaigns')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .where('state', '=', 'sending')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface LogFilter {
  accountId: number;
  channel: string;
  status?: string;
  recipient?: string;
  from?: number;
  to?: number;
  configId?: number;
  campaignId?: number;
}

function logMatches(db: Db, filter: LogFilter) {
  let query = db
    .selectFrom('messages')
    .where('messages.account_id', '=', filter.accountId)
    .where('messages.channel', '=', filter.channel);
  if (filter.status) query = query.where('messages.status', '=', filter.status);
  if (filter.recipient) query = query.where('messages.recipient', '=', filter.recipient);
  if (filter.from !== undefined) query = query.where('messages.created_at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('messages.created_at', '<', filter.to);
  if (filter.configId !== undefined) query = query.where('messages.config_id', '=', filter.configId);
  if (filter.campaignId !== undefined) query = query.where('messages.campaign_id', '=', filter.campaignId);
  return query;
}

function withNames<O>(query: SelectQueryBuilder<Database, 'messages', O>) {
  return query
    .leftJoin('provider_configs', 'provider_configs.id', 'messages.config_id')
    .leftJoin('templates', 'templates.id', 'messages.template_id')
    .leftJoin('campaigns', 'campaigns.id', 'messages.campaign_id')
    .select([
      'messages.id',
      'messages.channel',
      'messages.recipient',
      'messages.status',
      'messages.attempts',
      'messages.detail',
      'messages.provider_message_id',
      'messages.locale',
      'messages.config_id',
      'messages.campaign_id',
      'messages.created_at',
      'messages.updated_at',
      'provider_configs.name as config_name',
      'templates.name as template_name',
      'campaigns.name as campaign_name',
      'campaigns.state as campaign_state',
    ]);
}

export function logPage(db: Db, filter: LogFilter, limit: number, offset: number) {
  return withNames(logMatches(db, filter))
    .orderBy('messages.created_at', 'desc')
    .orderBy('messages.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

export type LogRow = Awaited<ReturnType<typeof logPage>>[number];

/** Matches counted up to LOG_COUNT_CAP + 1, so "more than the cap" is known without counting them all. */
export async function cappedLogCount(db: Db, filter: LogFilter): Promise<number> {
  const row = await db
    .selectFrom(
      logMatches(db, filter)
        .select(sql<number>`1`.as('one'))
        .limit(LOG_COUNT_CAP + 1)
        .as('matches'),
    )
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function findLogMessage(db: Db, accountId: number, channel: string, id: number) {
  return withNames(
    db
      .selectFrom('messages')
      .where('messages.account_id', '=', accountId)
      .where('messages.channel', '=', channel)
      .where('messages.id', '=', id),
  )
    .select(['messages.template_id', 'messages.route_group_id', 'messages.route_config_id'])
    .executeTakeFirst();
}

export function messageHistory(db: Db, accountId: number, messageId: number) {
  return db
    .selectFrom('message_events')
    .leftJoin('provider_configs', 'provider_configs.id', 'message_events.config_id')
    .select([
      'message_events.status',
      'message_events.at',
      'message_events.detail',
      'message_events.config_id',
      'provider_configs.name as config_name',
    ])
    .where('message_events.account_id', '=', accountId)
    .where('message_events.message_id', '=', messageId)
    .orderBy('message_events.id')
    .execute();
}
