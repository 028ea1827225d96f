/**
 * Builds Herald over a real, empty database for one test file:
 * SQLite in memory by default, a fresh PostgreSQL schema when HERALD_TEST_DB=postgres,
 * and scale mode (that schema plus Redis, under a key prefix of the app's own) when HERALD_TEST_REDIS=1 too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { Config } from '../../src/config.js';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';

export const TEST_DB = process.env.HERALD_TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Scale mode: BullMQ wake-ups, the Redis rate bucket and the Redis API rate counter instead of their single-node forms. */
export const TEST_SCALE = TEST_DB === 'postgres' && process.env.HERALD_TEST_REDIS === '1';
/** Redis keys of this test file; each app adds a suffix, so files and apps never see each other's keys. */
const FILE_REDIS_PREFIX = `herald-test-${process.pid}-${Date.now()}`;
let appCounter = 0;
// Apps a test builds from testConfig itself write under the file's prefix: removed with the file.
if (TEST_SCALE) afterAll(() => deleteRedisKeys(TEST_REDIS_URL, FILE_REDIS_PREFIX));

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  config: Config;
  close(): Promise<void>;
}

export function testConfig(dataDir: string, overrides: Partial<Config> = {}): Config {
  return {
    port: 0,
    host: '127.0.0.1',
    dataDir,
    databaseUrl: TEST_DB === 'postgres' ? TEST_DATABASE_URL : undefined,
    redisUrl: TEST_SCALE ? TEST_REDIS_URL : undefined,
    redisPrefix: TEST_SCALE ? FILE_REDIS_PREFIX : undefined,
    secret: Buffer.alloc(32, 7),
    publicUrl: 'http://herald.test',
    seed: false,
    sessionIdleDays: 14,
    logLevel: 'silent',
    bodyLimitBytes: 1024 * 1024,
    importMaxBytes: 200 * 1024 * 1024,
    bounceSmtpPort: undefined,
    // Every test signs its users up from the one inject address; test/security/address-limits.test.ts sets real caps.
    signupsPerHour: 100_000,
    feedbackPerHour: 100_000,
    // Test receivers listen on loopback; test/webhooks/webhooks.test.ts checks the refusal.
    webhookPrivateTargets: true,
    ...overrides,
  };
}

/** A database of its own: a new schema on PostgreSQL (dropped on close), memory on SQLite. */
export async function openTestDatabase(): Promise<{ database: DatabaseHandle; drop(): Promise<void> }> {
  if (TEST_DB === 'sqlite') {
    const database = openDatabase({ sqliteFile: ':memory:' });
    return { database, drop: async () => {} };
  }
  const schema = `t_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const database = openDatabase({ databaseUrl: TEST_DATABASE_URL, pgSchema: schema });
  return {
    database,
    drop: async () => {
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      await client.query(`drop schema ${schema} cascade`);
      await client.end();
    },
  };
}

export async function createTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'herald-test-'));
  appCounter += 1;
  const config = testConfig(dataDir, { redisPrefix: `${FILE_REDIS_PREFIX}-${appCounter}`, ...overrides });
  const { database, drop } = await openTestDatabase();
  await migrateToLatest(database);
  const app = await buildApp({ config, database });
  await app.ready();
  return {
    app,
    database,
    config,
    close: async () => {
      await app.close();
      await database.close();
      await drop();
      if (config.redisUrl && config.redisPrefix) await deleteRedisKeys(config.redisUrl, config.redisPrefix);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Removes every key under a prefix, since Redis outlives a test run. */
export async function deleteRedisKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

let userCounter = 0;

/** Signs a new user up through the API and answers its e-mail, password and token. */
export async function signUp(
  app: FastifyInstance,
  options: { email?: string; role?: 'site' | 'api' } = {},
): Promise<{ email: string; password: string; token: string }> {
  userCounter += 1;
  const email = options.email ?? `user${userCounter}-${Date.now()}@example.com`;
  const password = 'Secret123';
  const response = await app.inject({
    method: 'POST',
    url: '/api/data/users',
    payload: { email, password, timeZone: { id: '001', offset: 0 }, role: options.role ?? 'site' },
  });
  if (response.statusCode !== 200) throw new Error(`signup failed: ${response.statusCode} ${response.body}`);
  return { email, password, token: response.json().token };
}

/** Makes an existing account an admin (there is no API for it: the first-start account is the admin). */
export async function makeAdmin(database: DatabaseHandle, email: string): Promise<void> {
  await database.db.updateTable('accounts').set({ is_admin: 1 }).where('email', '=', email).execute();
}
