/**
 * The campaign clock: starts scheduled campaigns when their time comes, materialises recipients in
 * chunks (resuming from the cursor after a restart), and closes campaigns whose every message is settled.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.js';
import * as q from './queries.js';

export interface SupervisorOptions {
  db: Db;
  notify: () => void;
  intervalMs?: number;
  chunk?: number;
  log?: FastifyBaseLogger;
}

export class CampaignSupervisor {
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;

  constructor(private readonly options: SupervisorOptions) {}

  start(): void {
    this.timer = setInterval(() => {
      if (this.ticking) return;
      this.ticking = this.tick()
        .catch((error: unknown) => this.options.log?.error({ err: error }, 'campaign supervisor tick failed'))
        .finally(() => {
          this.ticking = undefined;
        });
    }, this.options.intervalMs ?? 500);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.ticking;
  }

  async tick(now = Date.now()): Promise<void> {
    const { db, notify } = this.options;
    const due = await db
      .updateTable('campaigns')
      .set({ state: 'sending', started_at: now, updated_at: now })
      .where('state', '=', 'scheduled')
      .where('scheduled_at', '<=', now)
      .executeTakeFirst();
    if (Number(due.numUpdatedRows) > 0) notify();

    const unfinished = await db
      .selectFrom('campaigns')
      .selectAll()
      .where('state', 'in', ['sending', 'paused'])
      .where('materialized', '=', 0)
      .execute();
    for (const campaign of unfinished) {
      const added = await q.materializeChunk(db, campaign, this.options.chunk ?? 10_000);
      if (added > 0) notify();
      const after = await db.selectFrom('campaigns').selectAll().where('id', '=', campaign.id).executeTakeFirstOrThrow();
      if (after.materialized === 1) {
        const { suppressed } = await q.countRecipients(db, Number(after.account_id), Number(after.list_id), after.channel);
        await db.updateTable('campaigns').set({ suppressed }).where('id', '=', after.id).execute();
      }
    }

    const sending = await db
      .selectFrom('campaigns')
      .select('id')
      .where('state', '=', 'sending')
      .where('materialized', '=', 1)
      .execute();
    for (const campaign of sending) {
      if (!(await q.hasPendingMessages(db, Number(campaign.id)))) {
        await q.moveCampaign(db, Number(campaign.id), ['sending'], 'sent', { finished_at: Date.now() });
      }
    }
  }
}
