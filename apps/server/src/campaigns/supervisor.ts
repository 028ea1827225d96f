/**
 * The campaign clock: starts scheduled campaigns when their time comes, materialises recipients in
 * chunks (resuming from the cursor after a restart), closes campaigns whose every message is settled,
 * pauses a campaign whose recent messages mostly fail (a broken provider should not burn the list),
 * and marks e-mail still unopened after a finished campaign's window unread.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.js';
import { hookEvents } from '../hooks/events.js';
import { CoalescedRun } from '../lib/coalesced-run.js';
import * as q from './queries.js';
import { markUnread } from './unread.js';

/** Auto-pause: at least this many messages settled since the window began … */
export const AUTO_PAUSE_MIN_SETTLED = 20;
/** … of which at least this share failed. */
export const AUTO_PAUSE_FAILED_SHARE = 0.8;
/** The window restarts after this many settled messages, so it looks at recent sends only. */
const AUTO_PAUSE_WINDOW = 100;
const AUTO_PAUSE_CHECK_MS = 2000;
const SETTLED_OK = ['sent', 'sent_alternative', 'delivered', 'undelivered', 'unread', 'read'];

interface SettledCounts {
  failed: number;
  ok: number;
}

export interface SupervisorOptions {
  db: Db;
  notify: () => void;
  intervalMs?: number;
  chunk?: number;
  /** With several processes on one database, only the holder of this lock ticks (scale/lock.ts). */
  lock?: { held(): boolean };
  log?: FastifyBaseLogger;
}

export class CampaignSupervisor {
  private timer: NodeJS.Timeout | undefined;
  private readonly ticks = new CoalescedRun(
    () => this.tick(),
    () => this.timer !== undefined && (!this.options.lock || this.options.lock.held()),
    (error) => this.options.log?.error({ err: error }, 'campaign supervisor tick failed'),
  );
  /** Per sending campaign, the settled counts when its auto-pause window began. */
  private readonly windows = new Map<number, SettledCounts>();
  private lastFailureCheck = 0;

  constructor(private readonly options: SupervisorOptions) {}

  start(): void {
    this.timer = setInterval(() => {
      if (!this.ticks.busy) this.poke();
    }, this.options.intervalMs ?? 500);
    this.timer.unref();
  }

  /**
   * Once started, ticks now (a campaign was started or resumed) rather than at the next interval; a tick under way
   * is followed by another.
   */
  poke(): void {
    this.ticks.trigger();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.ticks.settled();
  }

  async tick(now = Date.now()): Promise<void> {
    const { db, notify } = this.options;
    const due = await db
      .updateTable('campaigns')
      .set({ state: 'sending', started_at: now, updated_at: now })
      .where('state', '=', 'scheduled')
      .where('scheduled_at', '<=', now)
      .returning(['id', 'account_id', 'name'])
      .execute();
    for (const c of due)
      hookEvents.emit('campaign.started', { accountId: Number(c.account_id), campaignId: Number(c.id), name: c.name });
    if (due.length > 0) notify();

    const unfinished = await db
      .selectFrom('campaigns')
      .selectAll()
      .where('state', 'in', ['sending', 'paused'])
      .where('materialized', '=', 0)
      .execute();
    for (let campaign of unfinished) {
      // Chunk after chunk until every recipient is in the ledger (the engine sends from the first one on): one chunk a
      // tick capped a campaign at 20,000 messages/s. Other work on this event loop goes between chunks.
      for (;;) {
        const added = await q.materializeChunk(db, campaign, this.options.chunk ?? 10_000);
        if (added > 0) notify();
        campaign = await db.selectFrom('campaigns').selectAll().where('id', '=', campaign.id).executeTakeFirstOrThrow();
        if (campaign.materialized === 1) {
          const { suppressed } = await q.countRecipients(
            db,
            Number(campaign.account_id),
            Number(campaign.list_id),
            campaign.channel,
          );
          await db.updateTable('campaigns').set({ suppressed }).where('id', '=', campaign.id).execute();
          break;
        }
        if (campaign.state !== 'sending' && campaign.state !== 'paused') break;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }

    const sending = await db
      .selectFrom('campaigns')
      .select(['id', 'account_id', 'name'])
      .where('state', '=', 'sending')
      .where('materialized', '=', 1)
      .execute();
    for (const campaign of sending) {
      if (!(await q.hasPendingMessages(db, Number(campaign.id)))) {
        if (await q.moveCampaign(db, Number(campaign.id), ['sending'], ...(await this.outcome(Number(campaign.id))))) {
          hookEvents.emit('campaign.finished', {
            accountId: Number(campaign.account_id),
            campaignId: Number(campaign.id),
            name: campaign.name,
          });
        }
      }
    }

    if (now - this.lastFailureCheck >= AUTO_PAUSE_CHECK_MS) {
      this.lastFailureCheck = now;
      await this.pauseFailingCampaigns();
    }
    await markUnread(db, now);
  }

  /** Compares each sending campaign's settled counts with the start of its window (read from the hourly rollup). */
  /** A finished campaign is sent, or failed when none of its messages reached a provider (all failed or filtered). */
  private async outcome(id: number): Promise<['sent' | 'failed', Parameters<typeof q.moveCampaign>[4]]> {
    const counts = (await q.statusCounts(this.options.db, [id])).get(id) ?? {};
    const finished = { finished_at: Date.now() };
    if (SETTLED_OK.some((status) => (counts[status] ?? 0) > 0)) return ['sent', finished];
    const failed = counts.failed ?? 0;
    const filtered = counts.filtered ?? 0;
    if (failed + filtered === 0) return ['sent', finished];
    return ['failed', { ...finished, detail: 'campaigns.noneSent', detail_params: JSON.stringify({ failed, filtered }) }];
  }

  private async pauseFailingCampaigns(): Promise<void> {
    const { db } = this.options;
    const live = await db
      .selectFrom('campaigns')
      .select(['id', 'account_id', 'name', 'state'])
      .where('state', 'in', ['sending', 'paused'])
      .execute();
    const liveIds = new Set(live.map((campaign) => Number(campaign.id)));
    for (const id of this.windows.keys()) if (!liveIds.has(id)) this.windows.delete(id);
    for (const campaign of live) {
      if (campaign.state !== 'sending') continue;
      const id = Number(campaign.id);
      const accountId = Number(campaign.account_id);
      const counts = await settledCounts(db, accountId, id);
      // A campaign first seen (or seen after a restart) is judged from its first message.
      const start = this.windows.get(id) ?? { failed: 0, ok: 0 };
      const failed = counts.failed - start.failed;
      const settled = failed + counts.ok - start.ok;
      if (settled >= AUTO_PAUSE_MIN_SETTLED && failed >= settled * AUTO_PAUSE_FAILED_SHARE) {
        // A message key and its parameters: the console shows the reason in the reader's language.
        const reason = { detail: 'campaigns.autoPaused', detail_params: JSON.stringify({ failed, settled }) };
        if (await q.moveCampaign(db, id, ['sending'], 'paused', reason)) {
          this.options.log?.warn({ campaignId: id, failed, settled }, 'campaign paused: most recent messages failed');
          hookEvents.emit('campaign.autoPaused', { accountId, campaignId: id, name: campaign.name, failed, settled });
        }
        // After a resume the campaign is judged on what it sends from then on.
        this.windows.set(id, counts);
      } else if (settled >= AUTO_PAUSE_WINDOW) {
        this.windows.set(id, counts);
      }
    }
  }
}

async function settledCounts(db: Db, accountId: number, campaignId: number): Promise<SettledCounts> {
  const rows = await db
    .selectFrom('message_rollup')
    .select(['status', (eb) => eb.fn.sum<number>('count').as('n')])
    .where('account_id', '=', accountId)
    .where('campaign_id', '=', campaignId)
    .where('status', 'in', ['failed', ...SETTLED_OK])
    .groupBy('status')
    .execute();
  let failed = 0;
  let ok = 0;
  for (const row of rows) {
    if (row.status === 'failed') failed += Number(row.n);
    else ok += Number(row.n);
  }
  return { failed, ok };
}
