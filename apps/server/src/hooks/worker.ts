/**
 * Sends queued Slack deliveries in the background: each post bounded by a timeout, failures retried with
 * exponential backoff, then given up and kept in the log. A slow or broken Slack never touches sending.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.js';
import { CoalescedRun } from '../lib/coalesced-run.js';
import * as q from './queries.js';
import { openSlackUrl } from './service.js';
import { postToSlack, type SlackBody } from './slack.js';

export const MAX_DELIVERY_ATTEMPTS = 6;
const KEEP_LOG_MS = 30 * 24 * 3_600_000;
const BALANCE_EVERY_MS = 15 * 60_000;

export interface HookWorkerOptions {
  db: Db;
  secretKey: Buffer;
  log?: FastifyBaseLogger | undefined;
  pollMs?: number;
  timeoutMs?: number;
  /** First retry delay; doubles per attempt, capped at an hour. */
  backoffMs?: number;
  /** Deliveries posted at once, so one hanging endpoint does not hold up the others. */
  parallel?: number;
  /** Reads the balances of an account's first configs, which raises balance.low when one is under its threshold. */
  checkBalances?: (accountId: number) => Promise<unknown>;
}

export function deliveryBackoff(attempts: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), 3_600_000);
}

export class HookWorker {
  private timer: NodeJS.Timeout | undefined;
  private readonly runs = new CoalescedRun(
    () => this.tick(),
    () => this.timer !== undefined,
    (error) => this.options.log?.error({ err: error }, 'notification worker tick failed'),
  );
  private lastPrune = 0;
  private lastBalances = 0;
  private balancing: Promise<void> | undefined;

  constructor(private readonly options: HookWorkerOptions) {}

  start(): void {
    this.timer = setInterval(() => this.notify(), this.options.pollMs ?? 1000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.runs.settled();
    await this.balancing;
  }

  /** A delivery was queued: run now rather than at the next poll. */
  notify(): void {
    this.runs.trigger();
  }

  async tick(now = Date.now()): Promise<void> {
    const { db } = this.options;
    const timeoutMs = this.options.timeoutMs ?? 5000;
    const batch = await q.claimDue(db, this.options.parallel ?? 10, timeoutMs * 2 + 5000, now);
    await Promise.all(batch.map((delivery) => this.deliver(delivery, timeoutMs)));
    if (now - this.lastPrune > 3_600_000) {
      this.lastPrune = now;
      await q.pruneDeliveries(db, now - KEEP_LOG_MS);
    }
    const check = this.options.checkBalances;
    if (check && now - this.lastBalances > BALANCE_EVERY_MS && !this.balancing) {
      this.lastBalances = now;
      // Vendors can be slow to answer: deliveries do not wait for the balance round.
      this.balancing = this.checkBalances(check).finally(() => {
        this.balancing = undefined;
      });
    }
  }

  private async checkBalances(check: (accountId: number) => Promise<unknown>): Promise<void> {
    try {
      for (const accountId of await q.accountsWatchingBalance(this.options.db)) {
        await check(accountId).catch((error: unknown) =>
          this.options.log?.warn({ err: error, accountId }, 'balance check failed'),
        );
      }
    } catch (error) {
      this.options.log?.error({ err: error }, 'balance round failed');
    }
  }

  private async deliver(delivery: { id: number; account_id: number; payload: string; attempts: number }, timeoutMs: number) {
    const { db, secretKey } = this.options;
    const attempts = Number(delivery.attempts) + 1;
    const url = await openSlackUrl(db, secretKey, Number(delivery.account_id));
    const outcome =
      url === null
        ? { ok: false, status: null, error: 'no Slack URL is set any more' }
        : await postToSlack(url, JSON.parse(delivery.payload) as SlackBody, timeoutMs);
    const done = Date.now();
    if (outcome.ok) {
      await q.finishDelivery(
        db,
        Number(delivery.id),
        { status: 'sent', attempts, responseStatus: outcome.status, error: null },
        done,
      );
      return;
    }
    const giveUp = url === null || attempts >= MAX_DELIVERY_ATTEMPTS;
    await q.finishDelivery(
      db,
      Number(delivery.id),
      {
        status: giveUp ? 'failed' : 'pending',
        attempts,
        responseStatus: outcome.status,
        error: outcome.error,
        nextAttemptAt: done + deliveryBackoff(attempts, this.options.backoffMs ?? 30_000),
      },
      done,
    );
  }
}
