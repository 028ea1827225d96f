/**
 * Every status change goes through here: the message row moves only if it is still in the status the
 * caller saw (compare-and-set, so two processes never both apply a change), its history gets an event,
 * and the hourly rollup moves one count from the old bucket to the new, all in one transaction.
 */
import type { MessageStatus } from '@herald/shared';
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

/**
 * Applies the transitions that are still valid and answers the ids that moved. A transition the
 * status rules forbid, or whose message has moved on meanwhile, is skipped.
 */
export async function applyTransitions(db: Db, transitions: readonly Transition[], now = Date.now()): Promise<Set<number>> {
  const moved = new Set<number>();
  const valid = transitions.filter((t) => canMove(t.message.status, t.to));
  if (valid.length === 0) return moved;
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
    for (const t of valid) {
      const configId = t.configId === undefined ? t.message.configId : t.configId;
      const leaving = t.to !== 'processing';
      const result = await trx
        .updateTable('messages')
        .set({
          status: t.to,
          config_id: configId,
          updated_at: now,
          ...(t.providerMessageId !== undefined ? { provider_message_id: t.providerMessageId } : {}),
          ...(t.detail !== undefined ? { detail: t.detail } : {}),
          ...(t.attempts !== undefined ? { attempts: t.attempts } : {}),
          ...(t.nextAttemptAt !== undefined ? { next_attempt_at: t.nextAttemptAt } : {}),
          ...(leaving ? { lease_until: null, lease_owner: null } : {}),
        })
        .where('id', '=', t.message.id)
        .where('status', '=', t.message.status)
        .returning('template_id')
        .executeTakeFirst();
      if (!result) continue;
      moved.add(t.message.id);
      const counted = { ...t.message, templateId: result.template_id === null ? null : Number(result.template_id) };
      countInto(deltas, counted, t.message.configId, t.message.status, -1);
      countInto(deltas, counted, configId, t.to, +1);
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
