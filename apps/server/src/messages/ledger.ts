/**
 * Every status change goes through here: the message row moves only if it is still in the status the
 * caller saw (compare-and-set, so two processes never both apply a change), its history gets an event,
 * and the hourly rollup moves one count from the old bucket to the new, all in one transaction.
 */
import type { MessageStatus } from '@herald/shared';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { enqueueStatusEvents } from '../webhooks/outbox.js';
import { canMove } from './status.js';

export const HOUR_MS = 3_600_000;

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
  // Small chunks keep each statement well under SQLite's bound-parameter limit.
  for (let i = 0; i < rows.length; i += 100) {
    await db
      .insertInto('message_rollup')
      .values(rows.slice(i, i + 100))
      .onConflict((oc) =>
        oc
          .columns(['account_id', 'hour', 'channel', 'config_id', 'campaign_id', 'template_id', 'status'])
          .doUpdateSet((eb) => ({ count: eb(eb.ref('message_rollup.count'), '+', eb.ref('excluded.count')) })),
      )
      .execute();
  }
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
] as const;

/** Transitions per UPDATE: a few thousand bound values, well under either database's limit. */
const UPDATE_CHUNK = 500;

function configIdOf(t: Transition): number | null {
  return t.configId === undefined ? t.message.configId : t.configId;
}

function shapeOf(t: Transition): string {
  return `${t.to === 'processing' ? 'p' : 'l'}${OPTIONAL_COLUMNS.map(([field]) => (t[field] === undefined ? 0 : 1)).join('')}`;
}

/**
 * One compare-and-set UPDATE … FROM (VALUES …) for transitions of one shape: each row moves only if it is still
 * in the status the caller saw. Answers the moved ids with their template (a rollup dimension read from the row).
 */
async function updateChunk(trx: Db, chunk: readonly Transition[], now: number): Promise<Map<number, number | null>> {
  const first = chunk[0]!;
  const columns = OPTIONAL_COLUMNS.filter(([field]) => first[field] !== undefined);
  const rows = chunk.map(
    (t) =>
      sql`(${sql.join([
        sql`cast(${t.message.id} as bigint)`,
        sql`cast(${t.message.status} as text)`,
        sql`cast(${t.to} as text)`,
        sql`cast(${configIdOf(t)} as bigint)`,
        ...columns.map(([field, , type]) => sql`cast(${t[field] ?? null} as ${sql.raw(type)})`),
      ])})`,
  );
  const names = ['id', 'from_status', 'to_status', 'config_id', ...columns.map(([, column]) => column)];
  const sets = [
    sql`status = v.to_status`,
    sql`config_id = v.config_id`,
    sql`updated_at = ${now}`,
    ...columns.map(([, column]) => sql`${sql.raw(column)} = v.${sql.raw(column)}`),
    // A message leaving processing gives its lease back.
    ...(first.to === 'processing' ? [] : [sql`lease_until = null`, sql`lease_owner = null`]),
  ];
  const result = await sql<{ id: number; template_id: number | null }>`
    with v (${sql.raw(names.join(', '))}) as (values ${sql.join(rows)})
    update messages set ${sql.join(sets)}
    from v
    where messages.id = v.id and messages.status = v.from_status
    returning messages.id, messages.template_id`.execute(trx);
  return new Map(result.rows.map((row) => [Number(row.id), row.template_id === null ? null : Number(row.template_id)]));
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
    const events: {
      message_id: number;
      account_id: number;
      status: string;
      config_id: number | null;
      detail: string | null;
      at: number;
    }[] = [];
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
    for (let i = 0; i < events.length; i += 200)
      await trx
        .insertInto('message_events')
        .values(events.slice(i, i + 200))
        .execute();
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

/**
 * Persists new messages as unsent (counted in the rollup) before anything goes to a provider; inside the
 * caller's transaction when given one (the API stores its idempotency answer in the same transaction).
 */
export async function insertMessages(db: Db, messages: readonly NewMessage[], now = Date.now()): Promise<number[]> {
  if (messages.length === 0) return [];
  if (db.isTransaction) return insertMessagesIn(db, messages, now);
  return db.transaction().execute((trx) => insertMessagesIn(trx, messages, now));
}

async function insertMessagesIn(trx: Db, messages: readonly NewMessage[], now: number): Promise<number[]> {
  const ids: number[] = [];
  const deltas = new Map<RollupKey, number>();
  for (let i = 0; i < messages.length; i += 200) {
    const chunk = messages.slice(i, i + 200);
    const rows = await trx
      .insertInto('messages')
      .values(
        chunk.map((m) => ({
          account_id: m.accountId,
          campaign_id: m.campaignId,
          lane: m.lane,
          channel: m.channel,
          recipient: m.recipient,
          contact_id: m.contactId ?? null,
          template_id: m.templateId ?? null,
          payload: m.payload ?? null,
          route_group_id: m.routeGroupId ?? null,
          route_config_id: m.routeConfigId ?? null,
          config_id: null,
          status: 'unsent',
          attempts: 0,
          next_attempt_at: m.nextAttemptAt ?? now,
          lease_until: null,
          lease_owner: null,
          provider_message_id: null,
          detail: null,
          locale: m.locale ?? null,
          created_at: now,
          updated_at: now,
        })),
      )
      .returning('id')
      .execute();
    rows.forEach((row, index) => {
      const m = chunk[index]!;
      ids.push(Number(row.id));
      countInto(
        deltas,
        {
          id: Number(row.id),
          accountId: m.accountId,
          campaignId: m.campaignId,
          channel: m.channel,
          createdAt: now,
          status: 'unsent',
          configId: null,
          templateId: m.templateId ?? null,
        },
        null,
        'unsent',
        +1,
      );
    });
  }
  await applyRollupDeltas(trx, deltas);
  return ids;
}
