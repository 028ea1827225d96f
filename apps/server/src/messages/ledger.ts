/**
 * Every status change goes through here: the message row moves only if it is still in the status the
 * caller saw (compare-and-set, so two processes never both apply a change), its history gets an event,
 * and the hourly and daily rollups move one count from the old bucket to the new, all in one transaction.
 */
import type { MessageStatus } from '@herald/shared';
import { CompiledQuery, type RawBuilder, type Selectable, sql } from 'kysely';
import { type Db, isPostgres } from '../db/database.js';
import { enqueueStatusEvents } from '../webhooks/outbox.js';
import { canMove } from './status.js';
import type { MessageEventsTable } from './tables.js';

export const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** What the ledger needs to know of a message to move it. */
export interface LedgerMessage {
  id: number;
  accountId: number;
  campaignId: number | null;
  channel: string;
  createdAt: number;
  status: MessageStatus;
  configId: number | null;
  /**
   * The message's template (a rollup dimension, for reports by template category). applyTransitions reads it
   * back from the row it updates, so callers of applyTransitions may leave it out; direct countInto callers must set it.
   */
  templateId?: number | null;
}

export interface Transition {
  message: LedgerMessage;
  to: MessageStatus;
  /** The config that took (or refused) the message; unchanged when omitted. */
  configId?: number | null;
  providerMessageId?: string | null;
  detail?: string | null;
  attempts?: number;
  nextAttemptAt?: number;
  /** Sent through the other channel (fallback): the channel and the address it actually went to. */
  channel?: string;
  recipient?: string;
  /** Configs that failed it on the way to this outcome (failover), for its history. */
  passedOver?: readonly { configId: number; detail: string }[];
  /** JSON SmsPartsSent: the parts of a long SMS a provider took, which a retry must not send again. */
  smsPartsSent?: string;
}

type RollupKey = string;

function rollupKey(message: LedgerMessage, configId: number | null, status: string): RollupKey {
  return [
    message.accountId,
    Math.floor(message.createdAt / HOUR_MS),
    message.channel,
    configId ?? 0,
    message.campaignId ?? 0,
    message.templateId ?? 0,
    status,
  ].join('|');
}

interface RollupRowKey {
  account_id: number;
  hour?: number;
  day?: number;
  channel: string;
  config_id: number;
  campaign_id: number;
  template_id: number;
  status: string;
}

function byRollupKey(a: RollupRowKey, b: RollupRowKey): number {
  return (
    a.account_id - b.account_id ||
    (a.hour ?? a.day ?? 0) - (b.hour ?? b.day ?? 0) ||
    (a.channel < b.channel ? -1 : a.channel > b.channel ? 1 : 0) ||
    a.config_id - b.config_id ||
    a.campaign_id - b.campaign_id ||
    a.template_id - b.template_id ||
    (a.status < b.status ? -1 : a.status > b.status ? 1 : 0)
  );
}

/** Adds counts to a rollup in chunks that keep each statement well under SQLite's bound-parameter limit. */
async function upsertRollupRows(
  db: Db,
  table: 'message_rollup' | 'message_rollup_daily',
  period: 'hour' | 'day',
  rows: (RollupRowKey & { count: number })[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += 100) {
    await sql`insert into ${sql.table(table)} (account_id, ${sql.ref(period)}, channel, config_id, campaign_id, template_id, status, count)
      values ${sql.join(
        rows
          .slice(i, i + 100)
          .map(
            (row) =>
              sql`(${row.account_id}, ${row[period]}, ${row.channel}, ${row.config_id}, ${row.campaign_id}, ${row.template_id}, ${row.status}, ${row.count})`,
          ),
      )}
      on conflict (account_id, ${sql.ref(period)}, channel, config_id, campaign_id, template_id, status)
      do update set count = ${sql.table(table)}.count + excluded.count`.execute(db);
  }
}

export async function applyRollupDeltas(db: Db, deltas: Map<RollupKey, number>): Promise<void> {
  const rows = [...deltas.entries()]
    .filter(([, delta]) => delta !== 0)
    .map(([key, count]) => {
      const [account, hour, channel, config, campaign, template, status] = key.split('|') as [
        string,
        string,
        string,
        string,
        string,
        string,
        string,
      ];
      return {
        account_id: Number(account),
        hour: Number(hour),
        channel,
        config_id: Number(config),
        campaign_id: Number(campaign),
        template_id: Number(template),
        status,
        count,
      };
    });
  // Rows in key order, in every transaction that counts: two transactions never wait on each other's rows crosswise.
  rows.sort(byRollupKey);
  await upsertRollupRows(db, 'message_rollup', 'hour', rows);
  // The same deltas summed per UTC day, for the daily rollup.
  const daily = new Map<string, Omit<(typeof rows)[number], 'hour'> & { day: number }>();
  for (const { hour, ...row } of rows) {
    const day = Math.floor(hour / 24);
    const key = [row.account_id, day, row.channel, row.config_id, row.campaign_id, row.template_id, row.status].join('|');
    const summed = daily.get(key);
    if (summed) summed.count += row.count;
    else daily.set(key, { ...row, day });
  }
  const dailyRows = [...daily.values()].filter((row) => row.count !== 0).sort(byRollupKey);
  await upsertRollupRows(db, 'message_rollup_daily', 'day', dailyRows);
}

export function countInto(
  deltas: Map<RollupKey, number>,
  message: LedgerMessage,
  configId: number | null,
  status: string,
  delta: number,
) {
  const key = rollupKey(message, configId, status);
  deltas.set(key, (deltas.get(key) ?? 0) + delta);
}

/** Columns a transition may also write; transitions writing the same ones share one statement. */
const OPTIONAL_COLUMNS = [
  ['providerMessageId', 'provider_message_id', 'text'],
  ['detail', 'detail', 'text'],
  ['attempts', 'attempts', 'integer'],
  ['nextAttemptAt', 'next_attempt_at', 'bigint'],
  ['channel', 'channel', 'text'],
  ['recipient', 'recipient', 'text'],
  ['smsPartsSent', 'sms_parts_sent', 'text'],
] as const;

/** Transitions per UPDATE: a few thousand bound values, well under either database's limit. */
const UPDATE_CHUNK = 500;

function configIdOf(t: Transition): number | null {
  return t.configId === undefined ? t.message.configId : t.configId;
}

function shapeOf(t: Transition): string {
  return `${t.to === 'processing' ? 'p' : 'l'}${OPTIONAL_COLUMNS.map(([field]) => (t[field] === undefined ? 0 : 1)).join('')}`;
}

type OptionalColumn = (typeof OPTIONAL_COLUMNS)[number];

/** The statement for `count` transitions of one shape; its parameters are each row's values in order, then `now`. */
function updateStatement(columns: readonly OptionalColumn[], toProcessing: boolean, count: number) {
  const row = sql`(${sql.join([
    sql`cast(${null} as bigint)`,
    sql`cast(${null} as text)`,
    sql`cast(${null} as text)`,
    sql`cast(${null} as bigint)`,
    ...columns.map(([, , type]) => sql`cast(${null} as ${sql.raw(type)})`),
  ])})`;
  const names = ['id', 'from_status', 'to_status', 'config_id', ...columns.map(([, column]) => column)];
  const sets = [
    sql`status = v.to_status`,
    sql`config_id = v.config_id`,
    sql`updated_at = ${null}`,
    ...columns.map(([, column]) => sql`${sql.raw(column)} = v.${sql.raw(column)}`),
    // A message leaving processing gives its lease back.
    ...(toProcessing ? [] : [sql`lease_until = null`, sql`lease_owner = null`]),
  ];
  return sql<{ id: number; template_id: number | null }>`
    with v (${sql.raw(names.join(', '))}) as (values ${sql.join(Array.from({ length: count }, () => row))})
    update messages set ${sql.join(sets)}
    from v
    where messages.id = v.id and messages.status = v.from_status
    returning messages.id, messages.template_id`;
}

/** Compiled statement texts by database, statement and row count: the engine writes the same few thousands of times. */
const statementTexts = new Map<string, string>();
const STATEMENT_TEXTS_KEPT = 256;

/** The text of a statement built for `key` on this database, compiled the first time only. */
function statementText(db: Db, key: string, build: () => RawBuilder<unknown>): string {
  const fullKey = `${isPostgres(db) ? 'postgres' : 'sqlite'} ${key}`;
  let text = statementTexts.get(fullKey);
  if (text === undefined) {
    text = build().compile(db).sql;
    if (statementTexts.size >= STATEMENT_TEXTS_KEPT) statementTexts.clear();
    statementTexts.set(fullKey, text);
  }
  return text;
}

/**
 * One compare-and-set UPDATE … FROM (VALUES …) for transitions of one shape: each row moves only if it is still
 * in the status the caller saw. Answers the moved ids with their template (a rollup dimension read from the row).
 */
async function updateChunk(trx: Db, chunk: readonly Transition[], now: number): Promise<Map<number, number | null>> {
  const first = chunk[0]!;
  const columns = OPTIONAL_COLUMNS.filter(([field]) => first[field] !== undefined);
  const parameters: unknown[] = [];
  for (const t of chunk) {
    parameters.push(t.message.id, t.message.status, t.to, configIdOf(t));
    for (const [field] of columns) parameters.push(t[field] ?? null);
  }
  parameters.push(now);
  const text = statementText(trx, `update ${shapeOf(first)} ${chunk.length}`, () =>
    updateStatement(columns, first.to === 'processing', chunk.length),
  );
  const result = await trx.executeQuery<{ id: number; template_id: number | null }>(CompiledQuery.raw(text, parameters));
  return new Map(result.rows.map((row) => [Number(row.id), row.template_id === null ? null : Number(row.template_id)]));
}

type HistoryEvent = Omit<Selectable<MessageEventsTable>, 'id'>;

const EVENT_COLUMNS = ['message_id', 'account_id', 'status', 'config_id', 'detail', 'at'] as const;
const EVENTS_PER_INSERT = 200;

async function insertEvents(trx: Db, events: readonly HistoryEvent[]): Promise<void> {
  const text = statementText(trx, `events ${events.length}`, () => {
    const row = sql`(${sql.join(EVENT_COLUMNS.map(() => sql`${null}`))})`;
    return sql`insert into message_events (${sql.raw(EVENT_COLUMNS.join(', '))})
      values ${sql.join(Array.from({ length: events.length }, () => row))}`;
  });
  const parameters: unknown[] = [];
  for (const event of events) for (const column of EVENT_COLUMNS) parameters.push(event[column]);
  await trx.executeQuery(CompiledQuery.raw(text, parameters));
}

/**
 * Applies the transitions that are still valid and answers the ids that moved. A transition the
 * status rules forbid, or whose message has moved on meanwhile, is skipped. Rows are written a chunk
 * per statement, with the history, the webhook outbox and the rollup delta, all in one transaction.
 */
export async function applyTransitions(db: Db, transitions: readonly Transition[], now = Date.now()): Promise<Set<number>> {
  const moved = new Set<number>();
  // One transition per message: a second one would have failed its compare-and-set after the first.
  const seen = new Set<number>();
  const shapes = new Map<string, Transition[]>();
  for (const t of transitions) {
    if (seen.has(t.message.id) || !canMove(t.message.status, t.to)) continue;
    seen.add(t.message.id);
    const shape = shapeOf(t);
    const group = shapes.get(shape);
    if (group) group.push(t);
    else shapes.set(shape, [t]);
  }
  if (seen.size === 0) return moved;
  await db.transaction().execute(async (trx) => {
    const deltas = new Map<RollupKey, number>();
    const events: HistoryEvent[] = [];
    for (const group of shapes.values()) {
      for (let i = 0; i < group.length; i += UPDATE_CHUNK) {
        const chunk = group.slice(i, i + UPDATE_CHUNK);
        const updated = await updateChunk(trx, chunk, now);
        for (const t of chunk) {
          if (!updated.has(t.message.id)) continue;
          moved.add(t.message.id);
          const configId = configIdOf(t);
          const counted = { ...t.message, templateId: updated.get(t.message.id) ?? null };
          countInto(deltas, counted, t.message.configId, t.message.status, -1);
          countInto(deltas, t.channel === undefined ? counted : { ...counted, channel: t.channel }, configId, t.to, +1);
          for (const passed of t.passedOver ?? []) {
            events.push({
              message_id: t.message.id,
              account_id: t.message.accountId,
              status: 'processing',
              config_id: passed.configId,
              detail: passed.detail,
              at: now,
            });
          }
          // Lease bookkeeping (processing and back) is not history a user needs to read.
          if (t.to !== 'processing' && !(t.message.status === 'processing' && t.to === 'unsent')) {
            events.push({
              message_id: t.message.id,
              account_id: t.message.accountId,
              status: t.to,
              config_id: configId,
              detail: t.detail ?? null,
              at: now,
            });
          }
        }
      }
    }
    // Before the history insert: the outbox reads each message's previous visible status from it.
    await enqueueStatusEvents(trx, events, now);
    for (let i = 0; i < events.length; i += EVENTS_PER_INSERT) await insertEvents(trx, events.slice(i, i + EVENTS_PER_INSERT));
    await applyRollupDeltas(trx, deltas);
  });
  return moved;
}

export interface NewMessage {
  accountId: number;
  campaignId: number | null;
  lane: number;
  channel: string;
  recipient: string;
  contactId?: number | null;
  templateId?: number | null;
  payload?: string | null;
  routeGroupId?: number | null;
  routeConfigId?: number | null;
  locale?: string | null;
  nextAttemptAt?: number;
}

const MESSAGE_COLUMNS = [
  'account_id',
  'campaign_id',
  'lane',
  'channel',
  'recipient',
  'contact_id',
  'template_id',
  'payload',
  'route_group_id',
  'route_config_id',
  'locale',
  'next_attempt_at',
] as const;
/** PostgreSQL array types of MESSAGE_COLUMNS, in the same order. */
const MESSAGE_ARRAY_TYPES = [
  'bigint',
  'bigint',
  'integer',
  'text',
  'text',
  'bigint',
  'bigint',
  'text',
  'bigint',
  'bigint',
  'text',
  'bigint',
];
const ROLLUP_KEY_COLUMNS = 'account_id, hour, channel, config_id, campaign_id, template_id, status';
const DAILY_KEY_COLUMNS = 'account_id, day, channel, config_id, campaign_id, template_id, status';
const INSERTED = `status, attempts, created_at, updated_at`;

function messageValues(m: NewMessage, now: number): unknown[] {
  return [
    m.accountId,
    m.campaignId,
    m.lane,
    m.channel,
    m.recipient,
    m.contactId ?? null,
    m.templateId ?? null,
    m.payload ?? null,
    m.routeGroupId ?? null,
    m.routeConfigId ?? null,
    m.locale ?? null,
    m.nextAttemptAt ?? now,
  ];
}

// The statements are written once: building them with the query builder cost more than running them.
const SQLITE_INSERT_MESSAGE = `insert into messages (${MESSAGE_COLUMNS.join(', ')}, ${INSERTED})
  values (${MESSAGE_COLUMNS.map(() => '?').join(', ')}, 'unsent', 0, ?, ?) returning id`;
const SQLITE_COUNT_UNSENT = `insert into message_rollup (${ROLLUP_KEY_COLUMNS}, count)
  values (?, ?, ?, 0, ?, ?, 'unsent', ?)
  on conflict (${ROLLUP_KEY_COLUMNS}) do update set count = message_rollup.count + excluded.count`;
const SQLITE_COUNT_UNSENT_DAILY = `insert into message_rollup_daily (${DAILY_KEY_COLUMNS}, count)
  values (?, ?, ?, 0, ?, ?, 'unsent', ?)
  on conflict (${DAILY_KEY_COLUMNS}) do update set count = message_rollup_daily.count + excluded.count`;
/**
 * One statement, so one round trip and atomic without a transaction of its own: the rows come in as one array
 * per column, are inserted in their order (ids rise with it) and counted in the rollup.
 */
const POSTGRES_INSERT_MESSAGES = `
  with input as (
    select * from unnest(${MESSAGE_ARRAY_TYPES.map((type, i) => `$${i + 1}::${type}[]`).join(', ')})
      with ordinality as t(${MESSAGE_COLUMNS.join(', ')}, ord)
  ),
  inserted as (
    insert into messages (${MESSAGE_COLUMNS.join(', ')}, ${INSERTED})
    select ${MESSAGE_COLUMNS.join(', ')}, 'unsent', 0, $${MESSAGE_COLUMNS.length + 1}, $${MESSAGE_COLUMNS.length + 1}
    from input order by ord
    returning id
  ),
  counted as (
    insert into message_rollup (${ROLLUP_KEY_COLUMNS}, count)
    select account_id, $${MESSAGE_COLUMNS.length + 2}, channel, 0, coalesce(campaign_id, 0), coalesce(template_id, 0), 'unsent', count(*)
    from input group by 1, 3, 5, 6 order by 1, 3, 5, 6
    on conflict (${ROLLUP_KEY_COLUMNS}) do update set count = message_rollup.count + excluded.count
    returning 1
  ),
  counted_daily as (
    insert into message_rollup_daily (${DAILY_KEY_COLUMNS}, count)
    select account_id, $${MESSAGE_COLUMNS.length + 3}, channel, 0, coalesce(campaign_id, 0), coalesce(template_id, 0), 'unsent', count(*)
    -- After the hourly rows, as the ledger does: the same lock order, so the two never deadlock.
    from input where (select count(*) from counted) >= 0
    group by 1, 3, 5, 6 order by 1, 3, 5, 6
    on conflict (${DAILY_KEY_COLUMNS}) do update set count = message_rollup_daily.count + excluded.count
  )
  select id from inserted order by id`;

/**
 * Persists new messages as unsent (counted in the rollup) before anything goes to a provider; inside the
 * caller's transaction when given one (the API stores its idempotency answer in the same transaction).
 * Answers the ids in the order of `messages`.
 */
export async function insertMessages(db: Db, messages: readonly NewMessage[], now = Date.now()): Promise<number[]> {
  if (messages.length === 0) return [];
  if (isPostgres(db)) {
    const columns: unknown[][] = MESSAGE_COLUMNS.map(() => []);
    for (const m of messages) {
      const values = messageValues(m, now);
      for (let i = 0; i < values.length; i++) columns[i]!.push(values[i]);
    }
    const result = await db.executeQuery<{ id: number }>(
      CompiledQuery.raw(POSTGRES_INSERT_MESSAGES, [...columns, now, Math.floor(now / HOUR_MS), Math.floor(now / DAY_MS)]),
    );
    return result.rows.map((row) => Number(row.id));
  }
  if (db.isTransaction) return insertMessagesSqlite(db, messages, now);
  return db.transaction().execute((trx) => insertMessagesSqlite(trx, messages, now));
}

async function insertMessagesSqlite(trx: Db, messages: readonly NewMessage[], now: number): Promise<number[]> {
  const ids: number[] = [];
  // Unsent counts per rollup row: account, channel, campaign, template (the hour is now's, the config none yet).
  const counts = new Map<string, { values: unknown[]; count: number }>();
  for (const m of messages) {
    const { rows } = await trx.executeQuery<{ id: number }>(
      CompiledQuery.raw(SQLITE_INSERT_MESSAGE, [...messageValues(m, now), now, now]),
    );
    ids.push(Number(rows[0]!.id));
    const values = [m.accountId, m.channel, m.campaignId ?? 0, m.templateId ?? 0];
    const key = values.join('|');
    const counted = counts.get(key);
    if (counted) counted.count += 1;
    else counts.set(key, { values, count: 1 });
  }
  const hour = Math.floor(now / HOUR_MS);
  const day = Math.floor(now / DAY_MS);
  for (const { values, count } of counts.values()) {
    const [account, channel, campaign, template] = values;
    await trx.executeQuery(CompiledQuery.raw(SQLITE_COUNT_UNSENT, [account, hour, channel, campaign, template, count]));
    await trx.executeQuery(CompiledQuery.raw(SQLITE_COUNT_UNSENT_DAILY, [account, day, channel, campaign, template, count]));
  }
  return ids;
}
