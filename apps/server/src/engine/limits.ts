/**
 * Per-config day and month limits, reserved atomically before a send so they hold across processes
 * (embedded mode: the database; scale mode will keep the same counters in Redis).
 */
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

export interface Reservation {
  granted: number;
  /** Which limit stopped the rest, if any. */
  spent: 'day' | 'month' | null;
}

export async function reserve(
  db: Db,
  dialect: Dialect,
  config: LimitedConfig,
  wanted: number,
  now = Date.now(),
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
    return { granted, spent };
  });
}

/** Gives back reserved slots the provider did not use (refused or failed messages). */
export async function release(db: Db, configId: number, count: number, reservedAt: number): Promise<void> {
  if (count <= 0) return;
  const { day, month } = periodsOf(reservedAt);
  await db
    .updateTable('config_usage')
    .set((eb) => ({ count: eb('count', '-', count) }))
    .where('config_id', '=', configId)
    .where('period', 'in', [day, month])
    .execute();
}
