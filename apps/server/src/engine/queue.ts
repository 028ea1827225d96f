/**
 * The embedded queue: waiting messages are claimed straight from the ledger with a lease
 * (status processing, lease_until). A worker that dies leaves its leases to run out; they are then
 * handed back, so the only possible duplicate is a message accepted in the instant before its status was written.
 */
import type { MessageStatus } from '@herald/shared';
import { sql } from 'kysely';
import type { Db, Dialect } from '../db/database.js';
import { applyRollupDeltas, applyTransitions, countInto, type LedgerMessage } from '../messages/ledger.js';

export interface ClaimedMessage extends LedgerMessage {
  lane: number;
  recipient: string;
  contactId: number | null;
  templateId: number | null;
  payload: string | null;
  routeGroupId: number | null;
  routeConfigId: number | null;
  attempts: number;
  locale: string | null;
}

export interface QueueOptions {
  db: Db;
  dialect: Dialect;
  /** Names this process in lease_owner, for operators reading the table. */
  owner: string;
  leaseMs: number;
}

export class DbQueue {
  constructor(private readonly options: QueueOptions) {}

  /** Claims up to `limit` due messages, priority lane first, skipping campaigns that are not sending. */
  async claim(limit: number, now = Date.now()): Promise<ClaimedMessage[]> {
    const { db, dialect, owner, leaseMs } = this.options;
    return db.transaction().execute(async (trx) => {
      // Written so both databases walk the partial index messages_waiting_idx in (lane, id) order and stop at
      // `limit`: with bound status values and an IN-subquery, SQLite read and sorted every waiting message instead.
      let query = trx
        .selectFrom('messages')
        .selectAll()
        .where(sql<boolean>`status in ('unsent', 'resending')`)
        .where('next_attempt_at', '<=', now)
        .where((eb) =>
          eb.or([
            eb('campaign_id', 'is', null),
            eb.exists(
              eb
                .selectFrom('campaigns')
                .select('campaigns.id')
                .whereRef('campaigns.id', '=', 'messages.campaign_id')
                .where('campaigns.state', '=', 'sending'),
            ),
          ]),
        )
        .orderBy('lane')
        .orderBy('id')
        .limit(limit);
      // Concurrent workers on PostgreSQL each take different rows instead of waiting on one another.
      if (dialect === 'postgres') query = query.forUpdate().skipLocked();
      const rows = await query.execute();
      if (rows.length === 0) return [];
      await trx
        .updateTable('messages')
        .set({ status: 'processing', lease_until: now + leaseMs, lease_owner: owner, updated_at: now })
        .where(
          'id',
          'in',
          rows.map((row) => row.id),
        )
        .execute();
      const deltas = new Map<string, number>();
      const claimed = rows.map((row): ClaimedMessage => {
        const message: ClaimedMessage = {
          id: Number(row.id),
          accountId: Number(row.account_id),
          campaignId: row.campaign_id === null ? null : Number(row.campaign_id),
          channel: row.channel,
          createdAt: Number(row.created_at),
          status: row.status as MessageStatus,
          configId: row.config_id === null ? null : Number(row.config_id),
          lane: Number(row.lane),
          recipient: row.recipient,
          contactId: row.contact_id === null ? null : Number(row.contact_id),
          templateId: row.template_id === null ? null : Number(row.template_id),
          payload: row.payload,
          routeGroupId: row.route_group_id === null ? null : Number(row.route_group_id),
          routeConfigId: row.route_config_id === null ? null : Number(row.route_config_id),
          attempts: Number(row.attempts),
          locale: row.locale,
        };
        countInto(deltas, message, message.configId, message.status, -1);
        countInto(deltas, message, message.configId, 'processing', +1);
        return { ...message, status: 'processing' };
      });
      await applyRollupDeltas(trx, deltas);
      return claimed;
    });
  }

  /**
   * Hands back the messages whose lease ran out (their worker died or hung); `all` hands back every
   * lease, for a single-process install starting up, where any lease left belongs to a dead process.
   */
  async returnExpiredLeases(now = Date.now(), all = false): Promise<number> {
    let query = this.options.db
      .selectFrom('messages')
      .select(['id', 'account_id', 'campaign_id', 'channel', 'created_at', 'config_id', 'attempts'])
      // A literal, so the partial index messages_leased_idx serves it rather than a scan of every message.
      .where(sql<boolean>`status = 'processing'`)
      .limit(5000);
    if (!all) query = query.where('lease_until', '<', now);
    const rows = await query.execute();
    const moved = await applyTransitions(
      this.options.db,
      rows.map((row) => ({
        message: {
          id: Number(row.id),
          accountId: Number(row.account_id),
          campaignId: row.campaign_id === null ? null : Number(row.campaign_id),
          channel: row.channel,
          createdAt: Number(row.created_at),
          status: 'processing' as const,
          configId: row.config_id === null ? null : Number(row.config_id),
        },
        to: 'unsent' as const,
        nextAttemptAt: now,
      })),
      now,
    );
    return moved.size;
  }
}
