/**
 * All SQL of statistics. Reports and the dashboard read only the hourly rollup; the log reads messages
 * through the indexes of migration 0009, one per filter, newest first.
 */
import { LOG_COUNT_CAP } from '@herald/shared';
import { type ExpressionBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { type DayWindow, localDayOfHour } from './days.js';

export interface RollupScope {
  accountId: number;
  /** EMAIL or SMS; both when absent. */
  channel?: string;
  /** Template category: only messages whose template is in it. */
  categoryId?: number;
}

function rollupIn(db: Db, scope: RollupScope, window: DayWindow) {
  let query = db
    .selectFrom('message_rollup')
    .where('account_id', '=', scope.accountId)
    .where('hour', '>=', window.fromHour)
    .where('hour', '<', window.toHour);
  if (scope.channel) query = query.where('channel', '=', scope.channel);
  if (scope.categoryId !== undefined) {
    const categoryId = scope.categoryId;
    query = query.where('template_id', 'in', (eb: ExpressionBuilder<Database, 'message_rollup'>) =>
      eb
        .selectFrom('templates')
        .select('templates.id')
        .where('templates.account_id', '=', scope.accountId)
        .where('templates.category_id', '=', categoryId),
    );
  }
  return query;
}

/**
 * A rollup row holds one hour of one bucket, far below 2^31; summing them as integers keeps PostgreSQL on its
 * int8 accumulator instead of numeric (sum of bigint), a quarter of a report's time.
 */
const sumOfCounts = sql<number>`sum(cast(count as integer))`;

export interface DayCount {
  day: number;
  channel: string;
  status: string;
  n: number;
}

export async function countsByDay(db: Db, scope: RollupScope, window: DayWindow): Promise<DayCount[]> {
  const day = localDayOfHour(window);
  const rows = await rollupIn(db, scope, window)
    .select([day.as('day'), 'channel', 'status', sumOfCounts.as('n')])
    .groupBy([day, 'channel', 'status'])
    .execute();
  return rows
    .map((row) => ({ day: Number(row.day), channel: row.channel, status: row.status, n: Number(row.n) }))
    .filter((row) => row.n !== 0);
}

export interface ReportCount {
  day: number;
  configId: number;
  campaignId: number;
  status: string;
  n: number;
}

/** One pass over the window's rollup rows for all three breakdowns of a report (per day, config and campaign). */
export async function reportCounts(db: Db, scope: RollupScope, window: DayWindow): Promise<ReportCount[]> {
  const day = localDayOfHour(window);
  const rows = await rollupIn(db, scope, window)
    .select([day.as('day'), 'config_id', 'campaign_id', 'status', sumOfCounts.as('n')])
    .groupBy([day, 'config_id', 'campaign_id', 'status'])
    .execute();
  return rows
    .map((row) => ({
      day: Number(row.day),
      configId: Number(row.config_id),
      campaignId: Number(row.campaign_id),
      status: row.status,
      n: Number(row.n),
    }))
    .filter((row) => row.n !== 0);
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
