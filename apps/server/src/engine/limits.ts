/**
 * Per-config day and month limits, reserved atomically before a send so they hold across processes. A sender holds
 * the slots it reserved until it hands them to its provider (limit_holds, leased like its messages): when a sender
 * dies, whoever returns its expired leases gives its held slots back, so a crash costs a limit at most the chunks
 * that were with the provider, not the whole batches reserved.
 */
import { detail } from '@herald/shared/message-details';
import { sql } from 'kysely';
import type { Db, Dialect } from '../db/database.js';
import { hookEvents } from '../hooks/events.js';

export interface LimitedConfig {
  id: number;
  limitPerDay: number | null;
  limitPerMonth: number | null;
}

export function periodsOf(now: number): { day: string; month: string } {
  const iso = new Date(now).toISOString();
  return { day: `d:${iso.slice(0, 10).replaceAll('-', '')}`, month: `m:${iso.slice(0, 7).replace('-', '')}` };
}

/** When a spent limit frees up again: the next UTC day, or the next month for a month limit. */
export function nextPeriodStart(now: number, spent: 'day' | 'month'): number {
  const date = new Date(now);
  return spent === 'day'
    ? Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1)
    : Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}

/** Why a message waits for the next day or month: every config able to take it had spent that limit. */
export const LIMIT_WAIT_DETAILS = { day: detail('details.dayLimit'), month: detail('details.monthLimit') } as const;

/** Messages woken per statement: a short write lock each, between the engine's own transactions. */
const WAKE_CHUNK = 5000;

/**
 * Makes the account's messages waiting for a spent limit due now: its limits or routes changed (a limit raised or
 * removed, a config added to a group), so they may go before the next period. Those still without a config able to
 * take them wait again. Answers how many were woken.
 */
export async function wakeLimitWaits(db: Db, accountId: number, now = Date.now()): Promise<number> {
  const campaigns = await db
    .selectFrom('campaigns')
    .select('id')
    .where('account_id', '=', accountId)
    .where('state', 'in', ['sending', 'paused'])
    .execute();
  let woken = 0;
  for (const campaignId of [null, ...campaigns.map((row) => Number(row.id))]) {
    for (const lane of [0, 1]) {
      for (let moved = WAKE_CHUNK; moved === WAKE_CHUNK; woken += moved) {
        const result = await db
          .updateTable('messages')
          .set({ next_attempt_at: now })
          .where('id', 'in', (eb) =>
            eb
              .selectFrom('messages')
              .select('id')
              // Walks messages_due_idx from now on: only messages due later, never the campaign's whole backlog.
              .where('campaign_id', campaignId === null ? 'is' : '=', campaignId)
              .where('lane', '=', lane)
              .where(sql<boolean>`status in ('unsent', 'resending')`)
              .where('next_attempt_at', '>', now)
              .where('account_id', '=', accountId)
              .where('detail', 'in', Object.values(LIMIT_WAIT_DETAILS))
              .limit(WAKE_CHUNK),
          )
          .executeTakeFirst();
        moved = Number(result.numUpdatedRows);
      }
    }
  }
  return woken;
}

/**
 * How many more messages these configs may still take this day and month together; null when one of them has no
 * limit. What is reserved but not yet used counts as used.
 */
export async function headroom(db: Db, configs: LimitedConfig[], now = Date.now()): Promise<number | null> {
  if (configs.some((config) => config.limitPerDay === null && config.limitPerMonth === null)) return null;
  if (configs.length === 0) return 0;
  const { day, month } = periodsOf(now);
  const rows = await db
    .selectFrom('config_usage')
    .select(['config_id', 'period', 'count'])
    .where(
      'config_id',
      'in',
      configs.map((config) => config.id),
    )
    .where('period', 'in', [day, month])
    .execute();
  const used = (configId: number, period: string) =>
    Number(rows.find((row) => Number(row.config_id) === configId && row.period === period)?.count ?? 0);
  return configs.reduce((sum, config) => {
    const dayLeft = config.limitPerDay === null ? Number.POSITIVE_INFINITY : config.limitPerDay - used(config.id, day);
    const monthLeft = config.limitPerMonth === null ? Number.POSITIVE_INFINITY : config.limitPerMonth - used(config.id, month);
    return sum + Math.max(0, Math.min(dayLeft, monthLeft));
  }, 0);
}

export interface Reservation {
  granted: number;
  /** Which limit stopped the rest, if any. */
  spent: 'day' | 'month' | null;
  /** The hold of the granted slots, for a config with a limit to keep and a holder. */
  holdId: number | null;
}

/** The sender reserving, and how long its hold lasts unless renewed (its lease). */
export interface Holder {
  owner: string;
  leaseMs: number;
}

/** A hold being given back at the end of a batch, with what its sender believes is still in it. */
export interface HeldSlots {
  id: number;
  stillHeld: number;
}

export async function reserve(
  db: Db,
  dialect: Dialect,
  config: LimitedConfig,
  wanted: number,
  now = Date.now(),
  holder?: Holder,
): Promise<Reservation> {
  const { day, month } = periodsOf(now);
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('config_usage')
      .values([
        { config_id: config.id, period: day, count: 0 },
        { config_id: config.id, period: month, count: 0 },
      ])
      .onConflict((oc) => oc.columns(['config_id', 'period']).doNothing())
      .execute();
    let read = trx
      .selectFrom('config_usage')
      .select(['period', 'count'])
      .where('config_id', '=', config.id)
      .where('period', 'in', [day, month]);
    if (dialect === 'postgres') read = read.forUpdate();
    const counts = new Map((await read.execute()).map((row) => [row.period, Number(row.count)]));
    const dayLeft = config.limitPerDay === null ? Number.POSITIVE_INFINITY : config.limitPerDay - (counts.get(day) ?? 0);
    const monthLeft = config.limitPerMonth === null ? Number.POSITIVE_INFINITY : config.limitPerMonth - (counts.get(month) ?? 0);
    const granted = Math.max(0, Math.min(wanted, dayLeft, monthLeft));
    if (granted > 0) {
      await trx
        .updateTable('config_usage')
        .set((eb) => ({ count: eb('count', '+', granted) }))
        .where('config_id', '=', config.id)
        .where('period', 'in', [day, month])
        .execute();
    }
    const spent = granted === wanted ? null : dayLeft <= monthLeft ? 'day' : 'month';
    if (spent) hookEvents.emit('limit.reached', { configId: config.id, limit: spent, period: spent === 'day' ? day : month });
    const limited = config.limitPerDay !== null || config.limitPerMonth !== null;
    if (granted === 0 || !holder || !limited) return { granted, spent, holdId: null };
    const hold = await trx
      .insertInto('limit_holds')
      .values({ owner: holder.owner, config_id: config.id, reserved_at: now, count: granted, lease_until: now + holder.leaseMs })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { granted, spent, holdId: Number(hold.id) };
  });
}

/**
 * Slots of a hold about to go to the provider: from now on they count as used, even if this sender dies. False when
 * the hold was reclaimed: the sender outlived its lease, and its messages went back to the queue with it.
 */
export async function handOver(db: Db, holdId: number, count: number): Promise<boolean> {
  const { numUpdatedRows } = await db
    .updateTable('limit_holds')
    // Never below zero: a retried write whose first try did commit must not give back slots that were used.
    .set({ count: sql<number>`case when count > ${count} then count - ${count} else 0 end` })
    .where('id', '=', holdId)
    .executeTakeFirst();
  return numUpdatedRows > 0n;
}

/**
 * Gives back reserved slots the provider did not use (refused or failed messages, and those never handed over) and
 * ends their hold. A hold already reclaimed (this sender outlived its lease) had what it still held given back then.
 */
export async function release(db: Db, configId: number, count: number, reservedAt: number, hold?: HeldSlots): Promise<void> {
  if (!hold) return giveBack(db, configId, count, reservedAt);
  await db.transaction().execute(async (trx) => {
    const ended = await trx.deleteFrom('limit_holds').where('id', '=', hold.id).returning('id').executeTakeFirst();
    await giveBack(trx, configId, ended ? count : count - hold.stillHeld, reservedAt);
  });
}

async function giveBack(db: Db, configId: number, count: number, reservedAt: number): Promise<void> {
  if (count <= 0) return;
  const { day, month } = periodsOf(reservedAt);
  await db
    .updateTable('config_usage')
    .set((eb) => ({ count: eb('count', '-', count) }))
    .where('config_id', '=', configId)
    .where('period', 'in', [day, month])
    .execute();
}

/** Keeps the holds of a sender that is still sending. */
export async function renewHolds(db: Db, owner: string, leaseMs: number, now = Date.now()): Promise<void> {
  await db
    .updateTable('limit_holds')
    .set({ lease_until: now + leaseMs })
    .where('owner', '=', owner)
    .execute();
}

/** Gives back the slots of holds whose lease ran out (their sender died); `all` at a single-process start. */
export async function reclaimHolds(db: Db, now = Date.now(), all = false): Promise<number> {
  return db.transaction().execute(async (trx) => {
    let expired = trx.deleteFrom('limit_holds').returning(['config_id', 'reserved_at', 'count']);
    if (!all) expired = expired.where('lease_until', '<', now);
    const holds = await expired.execute();
    for (const hold of holds) await giveBack(trx, Number(hold.config_id), Number(hold.count), Number(hold.reserved_at));
    return holds.length;
  });
}
