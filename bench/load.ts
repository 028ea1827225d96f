/**
 * Scale mode under load: 2 `herald api` and 2 `herald worker` processes (from the build) on PostgreSQL and Redis send
 * a campaign of N recipients into a loopback SMTP sink (a child process) while the sending API takes 500 requests/s
 * (autocannon, 250/s on each API process). Baseline in the same run: a bare nodemailer pooled loop into the same sink.
 * Reports campaign throughput, API latency, peak RSS per process, and checks that every recipient has exactly one
 * settled message and that the API messages persisted equal the 202 answers.
 * Works in its own schema (BENCH_SCHEMA, default herald_load, dropped and created again) of DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/test) and under its own Redis key prefix (herald-load) of REDIS_URL.
 * Also prints the CPU each API process spent per request. With --api-only no campaign runs (the workers send the API's
 * messages only): the API part alone, to iterate on it quickly. HERALD_CPU_PROF=<dir> profiles the API processes.
 * Run: npm run build -w packages/shared -w apps/server, then
 *      npx tsx --conditions=source bench/load.ts [recipients=1000000] [api-seconds=120] [--api-only]
 */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import nodemailer from 'nodemailer';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { openDatabase } from '../apps/server/src/db/database.js';
import { migrateToLatest } from '../apps/server/src/db/migrate.js';
import { serverEnv, serverNodeArgs } from '../scripts/lib.mjs';
import { repoRoot, stop, waitForHealth } from './lib/processes.js';
import { NEWSLETTER_HTML, recipient, SENDER, SUBJECT } from './lib/smtp-load.js';

const args = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const apiOnly = process.argv.includes('--api-only');
const count = Number(args[0] ?? 1_000_000);
const apiSeconds = Number(args[1] ?? 120);
/** HERALD_CPU_PROF=<dir>: V8 CPU profiles of the API processes are written there (node --cpu-prof). */
const profileDir = process.env.HERALD_CPU_PROF;
const API_RATE = 500;
const API_PORTS = [3151, 3152];
const WORKERS = 2;
const BARE_MAX = 10_000;
const SCHEMA = process.env.BENCH_SCHEMA ?? 'herald_load';
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = 'herald-load';
const SECRET = 'a'.repeat(64);

const schemaUrl = `${DATABASE_URL}?options=${encodeURIComponent(`-c search_path=${SCHEMA}`)}`;

async function freshStores(): Promise<void> {
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`drop schema if exists ${SCHEMA} cascade`);
  await admin.query(`create schema ${SCHEMA}`);
  await admin.end();
  const redis = new Redis(REDIS_URL);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${PREFIX}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== '0');
  redis.disconnect();
}

interface Sink {
  child: ChildProcess;
  port: number;
  received(): Promise<number>;
}

async function startSink(): Promise<Sink> {
  const child = fork(path.join(repoRoot, 'bench/lib/smtp-sink-process.ts'), { execArgv: ['--import', 'tsx'] });
  const [{ port }] = (await once(child, 'message')) as [{ port: number }];
  const received = async () => {
    child.send('count');
    return ((await once(child, 'message')) as [{ count: number }])[0].count;
  };
  return { child, port, received };
}

/** An admin account (both profiles), the sink as its e-mail config, a send key, a list of N contacts, a template and a draft campaign. */
async function seed(sinkPort: number, dataDir: string) {
  const config = {
    ...loadConfig({ DATA_DIR: dataDir, HERALD_SEED: '0', HERALD_SECRET: SECRET }),
    publicUrl: 'http://herald.bench',
  };
  const database = openDatabase({ databaseUrl: DATABASE_URL, pgSchema: SCHEMA });
  await migrateToLatest(database);
  const app = await buildApp({ config, database });
  await app.ready();
  const signup = await app.inject({
    method: 'POST',
    url: '/api/data/users',
    payload: { email: 'load@example.com', password: 'Load12345', timeZone: { id: '001' } },
  });
  await database.db.updateTable('accounts').set({ is_admin: 1 }).execute();
  const headers = { 'x-token': signup.json().token as string };
  const call = async (url: string, payload: Record<string, unknown>) => {
    const res = await app.inject({ method: 'POST', url, headers, payload });
    if (res.statusCode !== 200 && res.statusCode !== 201) throw new Error(`${url}: ${res.body}`);
    return res.json();
  };
  const provider = await call('/api/data/provider-configurations', {
    name: 'Sink',
    type: 'smtp',
    settings: { host: '127.0.0.1', port: sinkPort, security: 'none', senderEmail: SENDER, maxConnections: 10 },
  });
  const { key } = await call('/api/data/api-keys', { name: 'load', scope: 'send', rateLimit: 10_000 });
  const account = await database.db.selectFrom('accounts').select('id').executeTakeFirstOrThrow();
  const now = Date.now();
  const list = await database.db
    .insertInto('contact_lists')
    .values({ account_id: account.id, name: 'Load', created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await sql`insert into contacts (account_id, list_id, email, name, status, attributes, created_at, updated_at)
    select ${account.id}, ${list.id}, 'reader' || i || '@example.com', 'Reader ' || i, 'active', '{"city":"Kyiv"}', ${now}, ${now}
    from generate_series(0, ${count - 1}) as i`.execute(database.db);
  await database.db
    .updateTable('contact_lists')
    .set({ total_count: count, email_count: count, phone_count: 0 })
    .where('id', '=', list.id)
    .execute();
  await sql`analyze`.execute(database.db);
  const html = NEWSLETTER_HTML.replace('</body>', '<p>{{ contact.name }} · {{ contact.attributes.city }}</p></body>');
  await call('/api/data/templates', { name: 'load', channel: 'EMAIL', subject: SUBJECT, html });
  const campaign = await call('/api/data/campaigns', {
    name: 'Load',
    channel: 'EMAIL',
    listId: Number(list.id),
    templateName: 'load',
    configId: provider.id,
  });
  await app.close();
  await database.close();
  return { campaignId: campaign.id as number, token: headers['x-token'], key: key as string, accountId: Number(account.id) };
}

function startRole(role: 'api' | 'worker', dataDir: string, port?: number): ChildProcess {
  const profile = role === 'api' && profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profileDir)}`] : [];
  return spawn(process.execPath, [...serverNodeArgs, ...profile, path.join(repoRoot, 'apps/server/dist/main.js'), role], {
    env: {
      ...serverEnv,
      DATABASE_URL: schemaUrl,
      REDIS_URL,
      REDIS_PREFIX: PREFIX,
      DATA_DIR: dataDir,
      HERALD_SECRET: SECRET,
      HERALD_SEED: '0',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      ...(port ? { PORT: String(port) } : {}),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

/** CPU milliseconds (user + system) a process has used so far, from /proc (Linux, 100 clock ticks a second). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Peak resident memory of a process so far, from /proc (Linux). */
function peakRssMb(pid: number): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

async function bareLoop(sink: Sink): Promise<number> {
  const total = Math.min(count, BARE_MAX);
  const transport = nodemailer.createTransport({
    pool: true,
    host: '127.0.0.1',
    port: sink.port,
    secure: false,
    ignoreTLS: true,
    maxConnections: 10,
    maxMessages: Number.POSITIVE_INFINITY,
  });
  const before = await sink.received();
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const i = next++;
      await transport.sendMail({ from: SENDER, to: recipient(i), subject: SUBJECT, html: NEWSLETTER_HTML });
    }
  };
  await Promise.all(Array.from({ length: 100 }, worker));
  const elapsed = performance.now() - started;
  transport.close();
  if ((await sink.received()) - before !== total) throw new Error('bare loop: not every message arrived');
  return (total / elapsed) * 1000;
}

const apiMessage = {
  channel: 'email',
  to: 'buyer@example.com',
  content: { subject: 'Your order A-17', text: 'Thanks for your order.', html: '<p>Thanks for your order.</p>' },
};

async function apiLoad(port: number, key: string, pid: number) {
  const cpuBefore = cpuMs(pid);
  const result = await autocannon({
    url: `http://127.0.0.1:${port}/api/v1/messages`,
    method: 'POST',
    connections: 20,
    overallRate: API_RATE / API_PORTS.length,
    amount: (API_RATE / API_PORTS.length) * apiSeconds,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify(apiMessage),
  });
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    rps: result.requests.average,
    errors: result.errors + result.timeouts + result.non2xx,
    accepted: (result.statusCodeStats as Record<string, { count: number } | undefined>)['202']?.count ?? 0,
    cpuPerRequestMs: (cpuMs(pid) - cpuBefore) / ((API_RATE / API_PORTS.length) * apiSeconds),
  };
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'herald-load-'));
await freshStores();
const sink = await startSink();
const bare = apiOnly ? 0 : await bareLoop(sink);
if (!apiOnly) console.log(`bare nodemailer loop: ${bare.toFixed(0)} msgs/s`);
const seedStarted = performance.now();
const job = await seed(sink.port, dataDir);
console.log(`seeded ${count} contacts in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);

const apis = API_PORTS.map((port) => startRole('api', dataDir, port));
const workers = Array.from({ length: WORKERS }, () => startRole('worker', dataDir));
await Promise.all(API_PORTS.map((port) => waitForHealth(`http://127.0.0.1:${port}/api/health`, 60_000)));
const database = openDatabase({ databaseUrl: DATABASE_URL, pgSchema: SCHEMA });
// Workers are ready when both consume the queue (their BullMQ connections are named after it).
await new Promise((resolve) => setTimeout(resolve, 5000));

const sentBefore = await sink.received();
const started = performance.now();
if (!apiOnly) {
  const start = await fetch(`http://127.0.0.1:${API_PORTS[0]}/api/data/campaigns/${job.campaignId}/start`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-token': job.token },
    body: '{}',
  });
  if (!start.ok) throw new Error(`start: ${await start.text()}`);
}
const loads = Promise.all(API_PORTS.map((port, i) => apiLoad(port, job.key, apis[i]!.pid!)));

const campaignState = async () =>
  (await database.db.selectFrom('campaigns').select('state').where('id', '=', job.campaignId).executeTakeFirstOrThrow()).state;
let lastReport = performance.now();
while (!apiOnly && (await campaignState()) !== 'sent') {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  if (performance.now() - lastReport > 15_000) {
    lastReport = performance.now();
    const sent = (await sink.received()) - sentBefore;
    console.log(`  ${((lastReport - started) / 1000).toFixed(0)} s: ${sent} delivered to the sink`);
  }
}
const campaignMs = performance.now() - started;
const deliveredDuring = (await sink.received()) - sentBefore;
const api = await loads;
const settleDeadline = Date.now() + 120_000;
const pendingApi = async () =>
  Number(
    (
      await database.db
        .selectFrom('messages')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('campaign_id', 'is', null)
        .where('status', 'in', ['unsent', 'processing', 'resending'])
        .executeTakeFirstOrThrow()
    ).n,
  );
while ((await pendingApi()) > 0 && Date.now() < settleDeadline) await new Promise((resolve) => setTimeout(resolve, 500));

// Every message is sent once unless a worker lost the status write of a chunk it had sent (the in-flight window).
const sinkTotal = (await sink.received()) - sentBefore;
const rss = {
  api: apis.map((child) => peakRssMb(child.pid!)),
  worker: workers.map((child) => peakRssMb(child.pid!)),
};
const perRecipient = await sql<{ once: number; contacts: number; unsettled: number }>`
  select count(*) filter (where n = 1) as once, count(*) as contacts,
         (select count(*) from messages where campaign_id = ${job.campaignId} and status not in ('sent', 'failed', 'filtered')) as unsettled
  from (select c.id, count(m.id) as n from contacts c left join messages m on m.contact_id = c.id and m.campaign_id = ${job.campaignId}
        group by c.id) as per_contact`.execute(database.db);
const check = perRecipient.rows[0]!;
const persisted = Number(
  (
    await database.db
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('campaign_id', 'is', null)
      .executeTakeFirstOrThrow()
  ).n,
);
const accepted = api.reduce((sum, run) => sum + run.accepted, 0);
await database.close();
await Promise.all([...apis, ...workers].map(stop));
sink.child.kill();
rmSync(dataDir, { recursive: true, force: true });

const perSecond = (count / campaignMs) * 1000;
const exact = apiOnly || (Number(check.once) === count && Number(check.contacts) === count && Number(check.unsettled) === 0);
console.log(
  `API (2 processes, ${API_RATE} req/s for ${apiSeconds} s): ` +
    api
      .map(
        (run, i) =>
          `api${i + 1} p50 ${run.p50} ms, p99 ${run.p99} ms, ${run.rps.toFixed(0)} req/s, errors ${run.errors}, ` +
          `CPU ${run.cpuPerRequestMs.toFixed(3)} ms/request`,
      )
      .join('; '),
);
console.log(
  `peak RSS: api ${rss.api.map((mb) => mb.toFixed(0)).join(' / ')} MB, worker ${rss.worker.map((mb) => mb.toFixed(0)).join(' / ')} MB`,
);
const campaignMessages = apiOnly ? 0 : count;
console.log(
  `checks: ${apiOnly ? '' : `recipients with exactly one settled message ${check.once} of ${count} (unsettled ${check.unsettled}): ${exact ? 'ok' : 'FAILED'}; `}` +
    `API 202 answers ${accepted}, persisted ${persisted}: ${accepted === persisted ? 'equal' : 'NOT EQUAL'}; ` +
    `the sink received ${sinkTotal} for ${campaignMessages + persisted} messages (${sinkTotal - campaignMessages - persisted} sent twice)`,
);
if (!apiOnly)
  console.log(
    `scale mode (2 api + 2 worker): campaign of ${count} in ${(campaignMs / 1000).toFixed(1)} s = ${perSecond.toFixed(0)} msgs/s ` +
      `beside ${accepted} API messages (${((deliveredDuring / campaignMs) * 1000).toFixed(0)} msgs/s delivered in all meanwhile); ` +
      `ratio vs bare nodemailer loop (${bare.toFixed(0)} msgs/s, one process) ${(perSecond / bare).toFixed(2)}`,
  );
process.exit(exact && accepted === persisted ? 0 : 1);
