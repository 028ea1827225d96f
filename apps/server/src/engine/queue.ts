/**
 * The embedded queue: waiting messages are claimed straight from the ledger with a lease
 * (status processing, lease_until). A worker that dies leaves its leases to run out; they are then
 * handed back, so the only possible duplicate is a message accepted in the instant before its status was written.
 */
import { sql } from 'kysely';
import { type Db, type Dialect, inIds } from '../db/database.js';
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
  /** JSON SmsPartsSent of an earlier attempt that a provider took in part. */
  smsPartsSent: string | null;
}

export interface QueueOptions {
  db: Db;
  dialect: Dialect;
  /** Names this process in lease_owner, for operators reading the table. */
  owner: string;
  leaseMs: number;
}

/** What a claim reads of a message: the columns a ClaimedMessage carries (each column read costs, per message). */
const CLAIMED_COLUMNS = [
  'id',
  'account_id',
  'campaign_id',
  'channel',
  'created_at',
  'status',
  'config_id',
  'lane',
  'recipient',
  'contact_id',
  'template_id',
  'payload',
  'route_group_id',
  'route_config_id',
  'attempts',
  'locale',
  'sms_parts_sent',
] as const;

/** Lanes in the order they are claimed: 0 is the priority lane (the API's), 1 bulk (campaigns). */
const LANES = [0, 1];

export class DbQueue {
  constructor(private readonly options: QueueOptions) {}

  /**
   * Claims up to `limit` due messages: those of no campaign (the API's) first, lane by lane, then those of each sending
   * campaign, oldest campaign first. Each read walks messages_due_idx within one campaign and lane from its due range,
   * so waiting messages of paused campaigns, or messages due later (retries, a spent day limit), are never read past.
   * `apiOnly` leaves campaigns' messages alone: the claim of the loop kept free for the API's.
   */
  async claim(limit: number, now = Date.now(), apiOnly = false): Promise<ClaimedMessage[]> {
    const { db, owner, leaseMs } = this.options;
    return db.transaction().execute(async (trx) => {
      const rows: Awaited<ReturnType<DbQueue['dueMessages']>> = [];
      const take = async (campaignId: number | null) => {
        for (const lane of LANES) {
          if (rows.length < limit) rows.push(...(await this.dueMessages(trx, campaignId, lane, limit - rows.length, now)));
        }
      };
      await take(null);
      if (rows.length < limit && !apiOnly) {
        const sending = await trx.selectFrom('campaigns').select('id').where('state', '=', 'sending').orderBy('id').execute();
        for (const campaign of sending) {
          if (rows.length === limit) break;
          await take(Number(campaign.id));
        }
      }
      if (rows.length === 0) return [];
      await trx
        .updateTable('messages')
        .set({ status: 'processing', lease_until: now + leaseMs, lease_owner: owner, updated_at: now })
        .where(
          inIds(
            trx,
            'id',
            rows.map((row) => Number(row.id)),
          ),
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
          status: 'processing',
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
          smsPartsSent: row.sms_parts_sent,
        };
        countInto(deltas, message, message.configId, row.status, -1);
        countInto(deltas, message, message.configId, 'processing', +1);
        return message;
      });
      await applyRollupDeltas(trx, deltas);
      return claimed;
    });
  }

  /** Up to `limit` due waiting messages of one campaign (null: none, the API's) and lane, in due then id order. */
  private dueMessages(trx: Db, campaignId: number | null, lane: number, limit: number, now: number) {
    // The status test is a literal, as the partial index states it: SQLite uses a partial index only then.
    let query = trx
      .selectFrom('messages')
      .select(CLAIMED_COLUMNS)
      .where('campaign_id', campaignId === null ? 'is' : '=', campaignId)
      .where('lane', '=', lane)
      .where(sql<boolean>`status in ('unsent', 'resending')`)
      .where('next_attempt_at', '<=', now)
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(limit);
    // Concurrent workers on PostgreSQL each take different rows instead of waiting on one another.
    if (this.options.dialect === 'postgres') query = query.forUpdate().skipLocked();
    return query.execute();
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
