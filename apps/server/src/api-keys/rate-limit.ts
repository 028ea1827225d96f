/**
 * Per-key request rate: a window of one second holding the key's rate_limit requests. The count lives
 * in memory for a single SQLite process, in Redis when REDIS_URL is set, else in PostgreSQL, so the
 * limit holds across every API process sharing the database.
 */
import { createRequire } from 'node:module';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '../config.js';
import type { DatabaseHandle } from '../db/database.js';

// Loaded only when used: an embedded install would carry the Redis and PostgreSQL clients (~20 MB) for nothing.
const require = createRequire(import.meta.url);

const WINDOW_SECONDS = 1;
const KEY_PREFIX = 'api-key';
const READY_WAIT_MS = 5000;

type Limiter = RateLimiterMemory | RateLimiterRedis | RateLimiterPostgres;

export class KeyRateLimiter {
  /** One limiter per distinct rate, all sharing the same store. */
  private readonly limiters = new Map<number, Limiter>();

  private constructor(
    private readonly make: (points: number) => Limiter,
    private readonly closeStore: () => Promise<void>,
    private readonly storeReady: () => Promise<void> = async () => {},
  ) {}

  static create(config: Config, database: DatabaseHandle): KeyRateLimiter {
    const memory = (points: number) => new RateLimiterMemory({ points, duration: WINDOW_SECONDS, keyPrefix: KEY_PREFIX });
    if (config.redisUrl) {
      const { Redis } = require('ioredis') as typeof import('ioredis');
      const redis = new Redis(config.redisUrl, {
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        lazyConnect: false,
        // The counts of the requests read in one round of I/O go to Redis in one write, not a system call each.
        enableAutoPipelining: true,
      });
      redis.on('error', () => {});
      return new KeyRateLimiter(
        (points) =>
          new RateLimiterRedis({
            storeClient: redis,
            points,
            duration: WINDOW_SECONDS,
            // Under REDIS_PREFIX like every other Herald key, so installs sharing one Redis never count together.
            keyPrefix: `${config.redisPrefix ?? 'herald'}:${KEY_PREFIX}`,
            // A Redis outage degrades to a per-process limit instead of refusing every request.
            insuranceLimiter: memory(points),
          }),
        async () => {
          redis.disconnect();
        },
        () =>
          redis.status === 'ready'
            ? Promise.resolve()
            : new Promise<void>((resolve) => {
                const timer = setTimeout(resolve, READY_WAIT_MS);
                redis.once('ready', () => {
                  clearTimeout(timer);
                  resolve();
                });
              }),
      );
    }
    if (database.dialect === 'postgres' && config.databaseUrl) {
      const pg = require('pg') as typeof import('pg');
      const pool = new pg.Pool({
        connectionString: config.databaseUrl,
        max: 4,
        ...(database.schema ? { options: `-c search_path=${database.schema}` } : {}),
      });
      pool.on('error', () => {});
      return new KeyRateLimiter(
        (points) =>
          new RateLimiterPostgres({
            storeClient: pool,
            storeType: 'pool',
            tableName: 'api_rate_limits',
            // Created by migration 0008 in the database's own schema.
            tableCreated: true,
            // One row per key, reused every window: nothing piles up to clear.
            clearExpiredByTimeout: false,
            points,
            duration: WINDOW_SECONDS,
            keyPrefix: KEY_PREFIX,
            insuranceLimiter: memory(points),
          }),
        () => pool.end(),
      );
    }
    return new KeyRateLimiter(memory, async () => {});
  }

  /** Counts one request of a key; answers null when allowed, else the milliseconds until the next is. */
  async consume(keyId: number, perSecond: number): Promise<number | null> {
    let limiter = this.limiters.get(perSecond);
    if (!limiter) {
      limiter = this.make(perSecond);
      this.limiters.set(perSecond, limiter);
    }
    try {
      await limiter.consume(String(keyId), 1);
      return null;
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return Math.max(rejection.msBeforeNext, 1);
      throw rejection;
    }
  }

  /** Resolves once the shared store is reachable (or after a few seconds), so the first requests are counted there. */
  ready(): Promise<void> {
    return this.storeReady();
  }

  close(): Promise<void> {
    return this.closeStore();
  }
}
