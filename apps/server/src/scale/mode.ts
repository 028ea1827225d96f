/**
 * Scale mode (REDIS_URL with a PostgreSQL DATABASE_URL): `herald api` processes store messages and wake the
 * scheduler through Redis; `herald worker` processes consume BullMQ jobs; the one process holding the scheduler
 * lock feeds the queue; a config's rate is a token bucket every worker shares. Day and month limits stay in the
 * database (engine/limits.ts): reserved under a row lock they are exact across processes already, and they
 * survive a Redis restart, which counters kept only in Redis would not.
 */
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { DatabaseHandle } from '../db/database.js';
import type { Dispatcher } from '../engine/dispatcher.js';
import type { RouteConfig } from '../engine/routing.js';
import { BullDispatch } from './bull-queue.js';
import type { SchedulerLock } from './lock.js';
import { SharedRate } from './rate.js';

/** A burst of API calls wakes the scheduler at most this often, so it leases them in batches. */
const WAKE_EVERY_MS = 20;

export interface ScaleModeOptions {
  redisUrl: string;
  prefix: string;
  database: DatabaseHandle;
  leaseMs: number;
  log?: FastifyBaseLogger | undefined;
}

export class ScaleMode {
  /** Commands that must not hang while Redis is away: the shared rate and wake-ups. */
  private readonly commands: Redis;
  private readonly rate: SharedRate;
  private readonly wakeChannel: string;
  private bull: BullDispatch | undefined;
  private bullRedis: Redis | undefined;
  private subscriber: Redis | undefined;
  private wakePending = false;
  private rateFailing = false;
  private redisLost = false;

  constructor(private readonly options: ScaleModeOptions) {
    this.commands = new Redis(options.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: true });
    // Said once per outage: ioredis reports every reconnection attempt.
    this.commands.on('error', (error) => {
      if (!this.redisLost)
        options.log?.error({ err: error }, 'Redis unreachable: this process reports itself down until it is back');
      this.redisLost = true;
    });
    this.commands.on('ready', () => {
      if (this.redisLost) options.log?.info('Redis reachable again');
      this.redisLost = false;
    });
    this.rate = new SharedRate(this.commands, options.prefix);
    this.wakeChannel = `${options.prefix}:wake`;
  }

  /** Whether this process reaches Redis (its jobs, the shared rate and wake-ups): the health check's second half. */
  redisReachable(): boolean {
    return this.commands.status === 'ready';
  }

  /** Waits for the config's shared rate; with Redis unreachable, each channel's own pacing is what remains. */
  async throttle(config: RouteConfig, count: number): Promise<void> {
    try {
      await this.rate.take(config, count);
      this.rateFailing = false;
    } catch (error) {
      if (!this.rateFailing) this.options.log?.warn({ err: error }, 'shared rate unavailable; channels pace themselves');
      this.rateFailing = true;
    }
  }

  /** New work (an API message, a started campaign): tells the scheduler, whichever process holds it. */
  wake(): void {
    if (this.wakePending) return;
    this.wakePending = true;
    setTimeout(() => {
      this.wakePending = false;
      this.commands.publish(this.wakeChannel, '1').catch(() => {});
    }, WAKE_EVERY_MS).unref();
  }

  /** Starts the sending side of this process: consuming jobs, and feeding them while it holds the scheduler lock. */
  async start(dispatcher: Dispatcher, lock: SchedulerLock): Promise<void> {
    const { redisUrl, prefix, database, leaseMs, log } = this.options;
    this.bullRedis = new Redis(redisUrl, { maxRetriesPerRequest: null });
    this.bullRedis.on('error', () => {});
    const bull = new BullDispatch({ db: database.db, redis: this.bullRedis, prefix, leaseMs, log });
    this.bull = bull;
    this.subscriber = new Redis(redisUrl, { maxRetriesPerRequest: null });
    this.subscriber.on('error', () => {});
    this.subscriber.on('message', () => bull.notify());
    await this.subscriber.subscribe(this.wakeChannel);
    bull.startFeeding(() => lock.held());
    bull.startConsuming(dispatcher);
  }

  async close(): Promise<void> {
    await this.bull?.close();
    this.subscriber?.disconnect();
    this.bullRedis?.disconnect();
    this.commands.disconnect();
  }
}
