/**
 * The sending API under load: POST /api/v1/messages at a fixed 1,000 requests/s for ~10 s against a real
 * started Herald (SQLite, sending engine running), and the same load on a bare Fastify POST route measured
 * in the same run. Prints p50/p99 latency, errors, the 202 count and the messages actually persisted
 * (they must be equal). Goal: p99 ≤ 25 ms. The two servers take turns for BENCH_ROUNDS rounds (3 by default).
 * Also prints the CPU each server spent per request (whole process, and Herald's main thread alone: the event loop
 * the requests wait on). HERALD_CPU_PROF=<dir> writes a V8 CPU profile of Herald there (node --cpu-prof).
 * Run: npm run build && npx tsx bench/api.ts [seconds] [--api-only | --scale]
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { startBareFastify, startHerald, stop } from './lib/processes.js';

const seconds = Number(process.argv[2] ?? 10);
/** `--api-only`: Herald in the api role, no engine in the process, to measure the request path alone. */
const apiOnly = process.argv.includes('--api-only');
/** `--scale`: the api role in scale mode, on a fresh PostgreSQL database and Redis (BENCH_PG, BENCH_REDIS). */
const scaleMode = process.argv.includes('--scale');
const PG_ADMIN_URL = process.env.BENCH_PG ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS ?? 'redis://127.0.0.1:6379';
const PG_DATABASE = `herald_bench_api_${process.pid}`;
const RATE = 1000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const GOAL_P99_MS = 25;
const HERALD_PORT = 3411;
const BARE_PORT = 3412;

const message = {
  channel: 'email',
  to: 'buyer@example.com',
  content: {
    subject: 'Your order A-17',
    text: 'Thanks for your order. It ships tomorrow.',
    html: '<p>Thanks for your order.</p>',
  },
};

/** Clock ticks per second of /proc/<pid>/stat on Linux. */
const TICKS_PER_SECOND = 100;

/** CPU milliseconds (user + system) a process, or one of its threads, has used so far. */
function cpuMs(pid: number, thread?: number): number {
  const file = thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`;
  const fields = readFileSync(file, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** Runs the load and answers what it measured, with the CPU per request of the server process `pid`. */
async function measured(pid: number, url: string, headers: Record<string, string>) {
  const before = { process: cpuMs(pid), main: cpuMs(pid, pid) };
  const result = await load(url, headers);
  const requests = RATE * seconds;
  return {
    ...result,
    cpuPerRequestMs: (cpuMs(pid) - before.process) / requests,
    mainThreadPerRequestMs: (cpuMs(pid, pid) - before.main) / requests,
  };
}

async function load(url: string, headers: Record<string, string>) {
  const result = await autocannon({
    url,
    method: 'POST',
    connections: 20,
    overallRate: RATE,
    // A fixed count rather than a duration, so every request is answered before the count is compared.
    amount: RATE * seconds,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(message),
  });
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    rps: result.requests.average,
    errors: result.errors + result.timeouts + result.non2xx,
    accepted: (result.statusCodeStats as Record<string, { count: number } | undefined>)['202']?.count ?? 0,
  };
}

async function json<T>(url: string, init: RequestInit): Promise<T> {
  const response = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...init.headers } });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

// Sandbox providers take the messages, so the engine sends while the API is loaded, as in production.
const profileDir = process.env.HERALD_CPU_PROF;
const pgAdmin = scaleMode ? new pg.Client({ connectionString: PG_ADMIN_URL }) : undefined;
await pgAdmin?.connect();
await pgAdmin?.query(`create database ${PG_DATABASE}`);
const databaseUrl = new URL(PG_ADMIN_URL);
databaseUrl.pathname = `/${PG_DATABASE}`;
const herald = await startHerald(
  HERALD_PORT,
  {
    HERALD_SEED: '1',
    ...(scaleMode ? { DATABASE_URL: databaseUrl.href, REDIS_URL, REDIS_PREFIX: PG_DATABASE } : {}),
  },
  {
    role: apiOnly || scaleMode ? 'api' : 'serve',
    nodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profileDir)}`] : [],
  },
);
const base = `http://127.0.0.1:${HERALD_PORT}`;
const { token } = await json<{ token: string }>(`${base}/api/data/users`, {
  method: 'POST',
  body: JSON.stringify({ email: 'bench@example.com', password: 'Bench1234', timeZone: { id: '001' }, role: 'api' }),
});
const { key } = await json<{ key: string }>(`${base}/api/data/api-keys`, {
  method: 'POST',
  headers: { 'x-token': token },
  body: JSON.stringify({ name: 'bench', scope: 'send', rateLimit: 10_000 }),
});
const bare = await startBareFastify(BARE_PORT);

// The machine is shared: bare Fastify and Herald take turns, and the goal is judged on the median round.
const rounds: { baseline: Awaited<ReturnType<typeof measured>>; api: Awaited<ReturnType<typeof measured>> }[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const baseline = await measured(bare.pid!, `http://127.0.0.1:${BARE_PORT}/bare`, {});
  const api = await measured(herald.child.pid!, `${base}/api/v1/messages`, { authorization: `Bearer ${key}` });
  rounds.push({ baseline, api });
}
await stop(bare);
await stop(herald.child);

const COUNT_PERSISTED =
  "select count(*) as n from messages where account_id = (select id from accounts where email = 'bench@example.com')";
let persisted: number;
if (pgAdmin) {
  const client = new pg.Client({ connectionString: databaseUrl.href });
  await client.connect();
  persisted = Number((await client.query<{ n: string }>(COUNT_PERSISTED)).rows[0]!.n);
  await client.end();
  await pgAdmin.query(`drop database ${PG_DATABASE}`);
  await pgAdmin.end();
} else {
  const sqlite = new SQLite(path.join(herald.dataDir, 'herald.db'), { readonly: true });
  persisted = (sqlite.prepare(COUNT_PERSISTED).get() as { n: number }).n;
  sqlite.close();
}
rmSync(herald.dataDir, { recursive: true, force: true });

for (const [index, { baseline, api }] of rounds.entries()) {
  console.log(
    `round ${index + 1}: bare Fastify POST p50 ${baseline.p50} ms, p99 ${baseline.p99} ms, ${baseline.rps.toFixed(0)} req/s, ` +
      `errors ${baseline.errors}, CPU ${baseline.cpuPerRequestMs.toFixed(3)} ms/request | ` +
      `Herald POST /api/v1/messages p50 ${api.p50} ms, p99 ${api.p99} ms, ${api.rps.toFixed(0)} req/s, errors ${api.errors}, ` +
      `202 answers ${api.accepted}, CPU ${api.cpuPerRequestMs.toFixed(3)} ms/request (main thread ${api.mainThreadPerRequestMs.toFixed(3)}` +
      `${scaleMode ? ', api role on PostgreSQL and Redis)' : apiOnly ? ', api role: no engine in the process)' : ', the engine sending in the same process included)'}`,
  );
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const p99 = median(rounds.map((round) => round.api.p99));
const bareP99 = median(rounds.map((round) => round.baseline.p99));
const accepted = rounds.reduce((sum, round) => sum + round.api.accepted, 0);
const errors = rounds.reduce((sum, round) => sum + round.api.errors, 0);
console.log(
  `api: median p99 ${p99} ms over ${ROUNDS} rounds (goal ≤ ${GOAL_P99_MS} ms: ${p99 <= GOAL_P99_MS ? 'met' : 'missed'}), ` +
    `p99 ratio vs bare Fastify ${(p99 / Math.max(bareP99, 1)).toFixed(1)}x, errors ${errors}, ` +
    `202 answers ${accepted} = persisted ${persisted}: ${persisted === accepted}`,
);
