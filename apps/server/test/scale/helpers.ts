/**
 * Scale-mode tests run real `herald worker` processes over one PostgreSQL schema and one Redis, each test file
 * under a Redis key prefix of its own (removed afterwards), beside a test app in the `herald api` role.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { QUEUE_NAME } from '../../src/scale/bull-queue.js';
import {
  createTestApp,
  deleteRedisKeys,
  signUp,
  TEST_DATABASE_URL,
  TEST_DB,
  TEST_REDIS_URL,
  type TestApp,
} from '../helpers/app.js';
import { waitFor } from '../helpers/wait.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
export const REDIS_URL = TEST_REDIS_URL;

/** Answers why scale-mode tests cannot run here, or undefined when they can. */
export async function scaleSkipReason(): Promise<string | undefined> {
  if (TEST_DB !== 'postgres') return 'scale mode runs on PostgreSQL (HERALD_TEST_DB=postgres)';
  const redis = new Redis(REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
    return undefined;
  } catch {
    return `Redis unreachable at ${REDIS_URL}`;
  } finally {
    redis.disconnect();
  }
}

export interface ScaleCluster {
  t: TestApp;
  prefix: string;
  token: string;
  accountId: number;
  workers: ChildProcess[];
  startWorker(env?: Record<string, string>): ChildProcess;
  /** Resolves once `count` worker processes consume the cluster's BullMQ queue. */
  waitForWorkers(count: number): Promise<void>;
  /** Every job completed since the cluster started: how many messages it sent and which worker did. */
  completed: { messages: number; worker: string }[];
  close(): Promise<void>;
}

/** A test app acting as `herald api` in scale mode, and a way to start `herald worker` processes beside it. */
export async function startCluster(name: string): Promise<ScaleCluster> {
  const prefix = `herald-test-${name}-${process.pid}-${Date.now()}`;
  const t = await createTestApp({ redisUrl: REDIS_URL, redisPrefix: prefix });
  const user = await signUp(t.app);
  const account = await t.database.db
    .selectFrom('accounts')
    .select('id')
    .where('email', '=', user.email)
    .executeTakeFirstOrThrow();
  const schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(t.database.db)).rows[0]!.schema;
  const databaseUrl = `${TEST_DATABASE_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), `herald-${name}-`));
  const workers: ChildProcess[] = [];
  const queue = new Queue(QUEUE_NAME, { connection: { url: REDIS_URL }, prefix });
  const events = new QueueEvents(QUEUE_NAME, { connection: { url: REDIS_URL }, prefix });
  const completed: ScaleCluster['completed'] = [];
  events.on('completed', ({ returnvalue }) => {
    completed.push(
      (typeof returnvalue === 'string' ? JSON.parse(returnvalue) : returnvalue) as ScaleCluster['completed'][number],
    );
  });
  await events.waitUntilReady();
  const startWorker = (env: Record<string, string> = {}) => {
    const child = spawn(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', path.join(repoRoot, 'apps/server/src/main.ts'), 'worker'],
      {
        cwd: repoRoot,
        env: {
          ...process.env,
          DATABASE_URL: databaseUrl,
          REDIS_URL,
          REDIS_PREFIX: prefix,
          DATA_DIR: dataDir,
          // The test app's key, or the workers could not read the configs' secrets.
          HERALD_SECRET: t.config.secret.toString('hex'),
          HERALD_SEED: '0',
          LOG_LEVEL: 'warn',
          ...env,
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    workers.push(child);
    return child;
  };
  return {
    t,
    prefix,
    token: user.token,
    accountId: Number(account.id),
    workers,
    startWorker,
    completed,
    waitForWorkers: (count) => waitFor(async () => (await queue.getWorkersCount()) >= count, 60_000, `${count} workers`),
    close: async () => {
      await Promise.all(workers.map(stopProcess));
      await events.close();
      await queue.close();
      await t.close();
      await deleteRedisKeys(REDIS_URL, prefix);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function stopProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** A list of `count` contacts with addresses `<tag><i>@example.com`, written straight to the database. */
export async function listOf(cluster: ScaleCluster, tag: string, count: number): Promise<number> {
  const { db } = cluster.t.database;
  const now = Date.now();
  const list = await db
    .insertInto('contact_lists')
    .values({ account_id: cluster.accountId, name: `${tag} ${now}`, created_at: now, updated_at: now } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  for (let start = 0; start < count; start += 1000) {
    await db
      .insertInto('contacts')
      .values(
        Array.from({ length: Math.min(1000, count - start) }, (_, offset) => ({
          account_id: cluster.accountId,
          list_id: Number(list.id),
          email: `${tag}${start + offset}@example.com`,
          name: `Reader ${start + offset}`,
          status: 'active',
          attributes: '{}',
          created_at: now,
          updated_at: now,
        })) as never,
      )
      .execute();
  }
  return Number(list.id);
}

/** Creates a provider config through the API and answers its id. */
export async function providerConfig(cluster: ScaleCluster, payload: Record<string, unknown>): Promise<number> {
  const res = await cluster.t.app.inject({
    method: 'POST',
    url: '/api/data/provider-configurations',
    headers: { 'x-token': cluster.token },
    payload,
  });
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json().id;
}

/** Creates and starts an e-mail campaign to a list through the API; answers its id. */
export async function startCampaign(cluster: ScaleCluster, listId: number, configId: number, name: string): Promise<number> {
  const headers = { 'x-token': cluster.token };
  const template = await cluster.t.app.inject({
    method: 'POST',
    url: '/api/data/templates',
    headers,
    payload: { name, channel: 'EMAIL', subject: 'Hello {{ contact.name }}', html: '<p>Hi {{ contact.name }}</p>' },
  });
  if (template.statusCode !== 200) throw new Error(template.body);
  const created = await cluster.t.app.inject({
    method: 'POST',
    url: '/api/data/campaigns',
    headers,
    payload: { name, channel: 'EMAIL', listId, templateName: name, configId },
  });
  if (created.statusCode !== 200) throw new Error(created.body);
  const id = created.json().id as number;
  const started = await cluster.t.app.inject({ method: 'POST', url: `/api/data/campaigns/${id}/start`, headers, payload: {} });
  if (started.statusCode !== 200) throw new Error(started.body);
  return id;
}

/** Messages per status for one campaign. */
export async function campaignStatuses(cluster: ScaleCluster, campaignId: number): Promise<Record<string, number>> {
  const rows = await cluster.t.database.db
    .selectFrom('messages')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('campaign_id', '=', campaignId)
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
}

/** How many times each address arrived at a sink. */
export function arrivals(recipients: (string | undefined)[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const to of recipients) if (to) counts.set(to, (counts.get(to) ?? 0) + 1);
  return counts;
}
