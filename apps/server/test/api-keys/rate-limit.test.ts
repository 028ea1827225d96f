import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyRateLimiter } from '../../src/api-keys/rate-limit.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { openTestDatabase, TEST_DB, testConfig } from '../helpers/app.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
let database: DatabaseHandle;
let drop: () => Promise<void>;
const dataDir = mkdtempSync(path.join(tmpdir(), 'herald-rate-'));

beforeAll(async () => {
  ({ database, drop } = await openTestDatabase());
  await migrateToLatest(database);
});
afterAll(async () => {
  await database.close();
  await drop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Ids no other run uses, since Redis outlives a test run. */
const freshKeyId = () => 1_000_000 + Math.floor(Math.random() * 1e9);

async function overLimit(
  limiters: KeyRateLimiter[],
  keyId: number,
  perSecond: number,
  calls: number,
): Promise<(number | null)[]> {
  const answers: (number | null)[] = [];
  for (let i = 0; i < calls; i++) answers.push(await limiters[i % limiters.length]!.consume(keyId, perSecond));
  return answers;
}

describe('per-key rate limit', () => {
  it('counts per key and answers the wait once a key is over its rate', async () => {
    const limiter = KeyRateLimiter.create(testConfig(dataDir), database);
    try {
      await limiter.ready();
      const key = freshKeyId();
      const answers = await overLimit([limiter], key, 3, 5);
      expect(answers.slice(0, 3)).toEqual([null, null, null]);
      expect(answers[3]).toBeGreaterThan(0);
      expect(answers[3]).toBeLessThanOrEqual(1000);
      expect(await limiter.consume(freshKeyId(), 3)).toBeNull();
    } finally {
      await limiter.close();
    }
  });

  it('holds across processes through Redis when REDIS_URL is set', async () => {
    const config = testConfig(dataDir, { redisUrl: REDIS_URL });
    const limiters = [KeyRateLimiter.create(config, database), KeyRateLimiter.create(config, database)];
    try {
      await Promise.all(limiters.map((limiter) => limiter.ready()));
      const answers = await overLimit(limiters, freshKeyId(), 4, 6);
      expect(answers.filter((answer) => answer === null)).toHaveLength(4);
    } finally {
      await Promise.all(limiters.map((limiter) => limiter.close()));
    }
  });

  it.runIf(TEST_DB === 'postgres')('holds across processes through PostgreSQL without Redis', async () => {
    const config = testConfig(dataDir, { redisUrl: undefined });
    const limiters = [KeyRateLimiter.create(config, database), KeyRateLimiter.create(config, database)];
    try {
      const answers = await overLimit(limiters, freshKeyId(), 4, 6);
      expect(answers.filter((answer) => answer === null)).toHaveLength(4);
      const stored = await database.db
        .selectFrom('api_rate_limits' as never)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(stored.n)).toBeGreaterThan(0);
    } finally {
      await Promise.all(limiters.map((limiter) => limiter.close()));
    }
  });
});
