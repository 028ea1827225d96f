/** All SQL of notification settings and the Slack delivery outbox; every query is scoped to an account. */
import type { Db } from '../db/database.js';

export function findSettings(db: Db, accountId: number) {
  return db.selectFrom('hook_settings').selectAll().where('account_id', '=', accountId).executeTakeFirst();
}

export interface SettingsRow {
  slack_url: string | null;
  sender_name: string;
  events: string;
  balance_threshold: number | null;
}

export async function saveSettings(db: Db, accountId: number, row: SettingsRow, now: number): Promise<void> {
  await db
    .insertInto('hook_settings')
    .values({ account_id: accountId, ...row, updated_at: now })
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ ...row, updated_at: now }))
    .execute();
}

export interface NewDelivery {
  accountId: number;
  event: string;
  dedupeKey: string | null;
  payload: string;
}

/** Queues a delivery; a second one with the same dedupe key is dropped. Answers whether it was queued. */
export async function insertDelivery(db: Db, delivery: NewDelivery, now: number): Promise<boolean> {
  const result = await db
    .insertInto('hook_deliveries')
    .values({
      account_id: delivery.accountId,
      event: delivery.event,
      dedupe_key: delivery.dedupeKey,
      payload: delivery.payload,
      status: 'pending',
      next_attempt_at: now,
      lease_until: null,
      response_status: null,
      last_error: null,
      created_at: now,
      finished_at: null,
    })
    .onConflict((oc) => oc.columns(['account_id', 'dedupe_key']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/** A test post is sent at once and logged with its outcome. */
export async function insertFinishedDelivery(
  db: Db,
  accountId: number,
  payload: string,
  outcome: { ok: boolean; status: number | null; error: string | null },
  now: number,
): Promise<void> {
  await db
    .insertInto('hook_deliveries')
    .values({
      account_id: accountId,
      event: 'test',
      dedupe_key: null,
      payload,
      status: outcome.ok ? 'sent' : 'failed',
      attempts: 1,
      next_attempt_at: now,
      lease_until: null,
      response_status: outcome.status,
      last_error: outcome.error,
      created_at: now,
      finished_at: Date.now(),
    })
    .execute();
}

/** Leases due deliveries to this worker; a lease that runs out (crash) makes them due again. */
export async function claimDue(db: Db, limit: number, leaseMs: number, now: number) {
  const due = await db
    .selectFrom('hook_deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .orderBy('next_attempt_at')
    .limit(limit)
    .execute();
  if (due.length === 0) return [];
  return db
    .updateTable('hook_deliveries')
    .set({ lease_until: now + leaseMs })
    .where(
      'id',
      'in',
      due.map((row) => row.id),
    )
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .returning(['id', 'account_id', 'payload', 'attempts'])
    .execute();
}

export async function finishDelivery(
  db: Db,
  id: number,
  changes: {
    status: 'pending' | 'sent' | 'failed';
    attempts: number;
    responseStatus: number | null;
    error: string | null;
    nextAttemptAt?: number;
  },
  now: number,
): Promise<void> {
  await db
    .updateTable('hook_deliveries')
    .set({
      status: changes.status,
      attempts: changes.attempts,
      response_status: changes.responseStatus,
      last_error: changes.error,
      lease_until: null,
      ...(changes.nextAttemptAt === undefined ? {} : { next_attempt_at: changes.nextAttemptAt }),
      finished_at: changes.status === 'pending' ? null : now,
    })
    .where('id', '=', id)
    .execute();
}

export function listDeliveries(db: Db, accountId: number, page: number, size: number) {
  return db
    .selectFrom('hook_deliveries')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('id', 'desc')
    .limit(size)
    .offset((page - 1) * size)
    .execute();
}

export async function countDeliveries(db: Db, accountId: number): Promise<number> {
  const row = await db
    .selectFrom('hook_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function pruneDeliveries(db: Db, before: number): Promise<void> {
  await db.deleteFrom('hook_deliveries').where('created_at', '<', before).where('status', '!=', 'pending').execute();
}

export function findConfigOwner(db: Db, configId: number) {
  return db.selectFrom('provider_configs').select(['account_id', 'name']).where('id', '=', configId).executeTakeFirst();
}

/** Accounts that want balance.low and can hear it: the worker reads their balances now and then. */
export async function accountsWatchingBalance(db: Db): Promise<number[]> {
  const rows = await db
    .selectFrom('hook_settings')
    .select(['account_id', 'events'])
    .where('slack_url', 'is not', null)
    .where('balance_threshold', 'is not', null)
    .execute();
  return rows.filter((row) => (JSON.parse(row.events) as string[]).includes('balance.low')).map((row) => Number(row.account_id));
}

/** A finished campaign's outcome for its notice, read from the hourly rollup. */
export async function campaignTotals(db: Db, accountId: number, campaignId: number): Promise<{ sent: number; failed: number }> {
  const rows = await db
    .selectFrom('message_rollup')
    .select(['status', (eb) => eb.fn.sum<number>('count').as('n')])
    .where('account_id', '=', accountId)
    .where('campaign_id', '=', campaignId)
    .groupBy('status')
    .execute();
  const count = (statuses: string[]) =>
    rows.filter((row) => statuses.includes(row.status)).reduce((sum, row) => sum + Number(row.n), 0);
  return {
    sent: count(['sent', 'sent_alternative', 'delivered', 'undelivered', 'unread', 'read']),
    failed: count(['failed', 'filtered']),
  };
}
