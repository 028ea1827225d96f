/**
 * Webhook events are written into the outbox (webhook_deliveries) inside the ledger's own transaction, so
 * an event exists exactly when its status change does. One insert-select per transaction: it keeps only
 * the messages whose account has an enabled webhook wanting them; accounts without one cost a key lookup.
 */
import { sql } from 'kysely';
import type { Db } from '../db/database.js';

export interface StatusEvent {
  message_id: number;
  account_id: number;
  status: string;
  detail: string | null;
}

/** Rows per statement; a transaction of the ledger rarely holds more than one batch of the engine. */
const CHUNK = 1000;

/** Must run before the transaction's history rows are inserted: the previous status is the latest history event. */
export async function enqueueStatusEvents(trx: Db, events: readonly StatusEvent[], now: number): Promise<void> {
  if (events.length === 0) return;
  // Most accounts have no webhook: one indexed lookup spares them the statement below.
  const accountIds = [...new Set(events.map((e) => e.account_id))];
  const hooked = await trx
    .selectFrom('webhooks')
    .select('account_id')
    .where('account_id', 'in', accountIds)
    .where('enabled', '=', 1)
    .limit(1)
    .executeTakeFirst();
  if (!hooked) return;
  // A message moving twice in one transaction (a failover's `processing`, then `sent`): its second event follows the first.
  const latest = new Map<number, string>();
  const previous = events.map((e) => {
    const before = latest.get(e.message_id) ?? null;
    latest.set(e.message_id, e.status);
    return before;
  });
  for (let i = 0; i < events.length; i += CHUNK) {
    const rows = sql.join(
      events
        .slice(i, i + CHUNK)
        .map(
          (e, index) =>
            sql`(cast(${e.message_id} as bigint), ${e.status}, ${e.detail}, cast(${previous[i + index]} as text), ${i + index})`,
        ),
    );
    await sql`
      with v (message_id, status, detail, previous_status, position) as (values ${rows})
      insert into webhook_deliveries (account_id, type, message_id, status, previous_status, detail, at, state, attempts, next_attempt_at)
      select m.account_id, 'message.status', m.id, v.status,
        coalesce(
          v.previous_status,
          (select e.status from message_events e where e.message_id = m.id order by e.id desc limit 1),
          'unsent'
        ),
        v.detail, cast(${now} as bigint), 'pending', 0, cast(${now} as bigint)
      from v
      join messages m on m.id = v.message_id
      join webhooks w on w.account_id = m.account_id and w.enabled = 1 and (w.events = 'all' or m.campaign_id is null)
      order by v.position
    `.execute(trx);
  }
}
