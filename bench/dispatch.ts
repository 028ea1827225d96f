/**
 * A whole campaign end to end — materialise, claim, render, send, write statuses — against a bare client loop
 * into the same loopback sink (a child process), measured in the same run:
 *   email: an SMTP campaign vs a bare nodemailer pooled loop (10 connections, composed per message);
 *   sms:   an SMPP campaign vs a bare smpp client loop (one bind, window 50).
 * Herald runs in a process of its own (lib/dispatch-herald-process.mjs) so its peak RSS is its own. The bare loop
 * measures at most BARE_MAX messages: its rate is what matters, and a million composed messages would take minutes.
 * Run: npm run build -w packages/shared -w apps/server, then
 *      npx tsx --conditions=source bench/dispatch.ts [recipients] [email|sms]   (default 20000 email)
 * Herald runs from its build, as in production; BENCH_CPU_PROF=<dir> writes a CPU profile of its process there, and
 * BENCH_NODE_ARGS adds node flags to it (say --trace-gc).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import nodemailer from 'nodemailer';
import smpp from 'smpp';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { openDatabase } from '../apps/server/src/db/database.js';
import { migrateToLatest } from '../apps/server/src/db/migrate.js';
import { serverEnv, serverNodeArgs } from '../scripts/lib.mjs';
import { repoRoot, stop } from './lib/processes.js';
import { NEWSLETTER_HTML, recipient, SENDER, SUBJECT } from './lib/smtp-load.js';

const count = Number(process.argv[2] ?? 20_000);
const channel = (process.argv[3] ?? 'email') === 'sms' ? 'SMS' : 'EMAIL';
const CONNECTIONS = 10;
const SMPP_WINDOW = 50;
const BARE_MAX = 20_000;
const SMPP_CREDENTIALS = { systemId: 'herald', password: 'secret' };
const SMS_TEXT = 'Hello {{ contact.name }}, your {{ contact.attributes.plan }} plan renews soon. {{ vars.company }}';

interface HeraldJob {
  dataDir: string;
  campaignId: number;
  token: string;
}

/** What lib/dispatch-herald-process.mjs reports. */
interface HeraldReport {
  elapsedMs: number;
  readyRssMb: number;
  peakRssMb: number;
  peakHeapMb: number;
  cpuMs: number;
}

const phone = (i: number) => `+38050${String(i % 10_000_000).padStart(7, '0')}`;

interface Sink {
  child: ChildProcess;
  port: number;
  received(): Promise<number>;
}

async function startSink(): Promise<Sink> {
  if (channel === 'EMAIL') {
    const child = fork(path.join(repoRoot, 'bench/lib/smtp-sink-process.ts'), { execArgv: ['--import', 'tsx'] });
    const [{ port }] = (await once(child, 'message')) as [{ port: number }];
    const received = async () => {
      child.send('count');
      return ((await once(child, 'message')) as [{ count: number }])[0].count;
    };
    return { child, port, received };
  }
  const child = fork(path.join(repoRoot, 'bench/lib/smpp-sink.ts'), { execArgv: ['--import', 'tsx'] });
  const [{ ports }] = (await once(child, 'message')) as [{ ports: { noDelay: number } }];
  const received = async () => {
    child.send('state');
    return ((await once(child, 'message')) as [{ count: number }])[0].count;
  };
  return { child, port: ports.noDelay, received };
}

/** nodemailer's pool with a window of sends in flight, each composing its MIME as an application would. */
async function bareSmtp(port: number, total: number): Promise<void> {
  const transport = nodemailer.createTransport({
    pool: true,
    host: '127.0.0.1',
    port,
    secure: false,
    ignoreTLS: true,
    maxConnections: CONNECTIONS,
    maxMessages: Infinity,
  });
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const i = next++;
      await transport.sendMail({ from: SENDER, to: recipient(i), subject: SUBJECT, html: NEWSLETTER_HTML });
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS * 10 }, worker));
  transport.close();
}

/** The smpp package's own client keeping a window of submit_sm in flight, nothing else. */
async function bareSmpp(port: number, total: number): Promise<void> {
  const session = smpp.connect({ host: '127.0.0.1', port });
  await new Promise<void>((resolve, reject) => {
    session.on('error', reject);
    session.on('connect', () =>
      session.bind_transceiver({ system_id: SMPP_CREDENTIALS.systemId, password: SMPP_CREDENTIALS.password }, (response) =>
        response.command_status === 0 ? resolve() : reject(new Error(`bind refused: ${response.command_status}`)),
      ),
    );
  });
  await new Promise<void>((resolve, reject) => {
    let sent = 0;
    let answered = 0;
    const submit = () => {
      const i = sent++;
      session.submit_sm(
        {
          source_addr_ton: 5,
          source_addr: 'Herald',
          dest_addr_ton: 1,
          dest_addr_npi: 1,
          destination_addr: phone(i).slice(1),
          registered_delivery: 1,
          short_message: `Hello Reader ${i}, your pro plan renews soon. Herald`,
        },
        (response) => {
          if (response.command_status !== 0) reject(new Error(`submit_sm refused: ${response.command_status}`));
          else if (++answered === total) resolve();
          else if (sent < total) submit();
        },
      );
    };
    for (let i = 0; i < Math.min(SMPP_WINDOW, total); i++) submit();
  });
  await new Promise<void>((resolve) => session.unbind({}, () => resolve()));
  session.destroy();
}

interface BareRun {
  perSecond: number;
  cpuMsPerMessage: number;
}

async function bareLoop(sink: Sink): Promise<BareRun> {
  const total = Math.min(count, BARE_MAX);
  const before = await sink.received();
  const cpu = process.cpuUsage();
  const started = performance.now();
  await (channel === 'EMAIL' ? bareSmtp(sink.port, total) : bareSmpp(sink.port, total));
  const elapsed = performance.now() - started;
  const used = process.cpuUsage(cpu);
  if ((await sink.received()) - before !== total) throw new Error('bare loop: not every message arrived');
  return { perSecond: (total / elapsed) * 1000, cpuMsPerMessage: (used.user + used.system) / 1000 / total };
}

/** A data directory with an account, a provider config for the sink, a list of `count` contacts, a template and a draft campaign. */
async function seed(dataDir: string, port: number): Promise<Omit<HeraldJob, 'dataDir'>> {
  const config = { ...loadConfig({ DATA_DIR: dataDir, HERALD_SEED: '0', LOG_LEVEL: 'warn' }), publicUrl: 'http://herald.bench' };
  const database = openDatabase({ sqliteFile: path.join(dataDir, 'herald.db') });
  await migrateToLatest(database);
  const app = await buildApp({ config, database, runWorkers: false });
  await app.ready();
  const signup = await app.inject({
    method: 'POST',
    url: '/api/data/users',
    payload: { email: 'bench@example.com', password: 'Bench1234', timeZone: { id: '001' } },
  });
  const token = signup.json().token as string;
  const headers = { 'x-token': token };
  const settings =
    channel === 'EMAIL'
      ? { host: '127.0.0.1', port, security: 'none', senderEmail: SENDER, maxConnections: CONNECTIONS }
      : { host: '127.0.0.1', port, ...SMPP_CREDENTIALS, sender: 'Herald', windowSize: SMPP_WINDOW };
  const provider = await app.inject({
    method: 'POST',
    url: '/api/data/provider-configurations',
    headers,
    payload: { name: 'Sink', type: channel === 'EMAIL' ? 'smtp' : 'smpp', settings },
  });
  if (provider.statusCode !== 200) throw new Error(`provider: ${provider.body}`);
  const account = await database.db.selectFrom('accounts').select('id').executeTakeFirstOrThrow();
  const now = Date.now();
  const list = await database.db
    .insertInto('contact_lists')
    .values({ account_id: account.id, name: 'Bench', created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (let start = 0; start < count; start += 10_000) {
    await database.db.transaction().execute(async (trx) => {
      for (let i = start; i < Math.min(count, start + 10_000); i += 500) {
        const rows = Array.from({ length: Math.min(500, count - i) }, (_, offset) => ({
          account_id: account.id,
          list_id: list.id,
          email: channel === 'EMAIL' ? recipient(i + offset) : null,
          phone: channel === 'SMS' ? phone(i + offset) : null,
          name: `Reader ${i + offset}`,
          attributes: JSON.stringify({ city: 'Kyiv', plan: 'pro' }),
          created_at: now,
          updated_at: now,
        }));
        await trx.insertInto('contacts').values(rows).execute();
      }
    });
  }
  await database.db
    .updateTable('contact_lists')
    .set({ total_count: count, email_count: channel === 'EMAIL' ? count : 0, phone_count: channel === 'SMS' ? count : 0 })
    .where('id', '=', list.id)
    .execute();
  await app.inject({
    method: 'POST',
    url: '/api/data/template-variables',
    headers,
    payload: { name: 'company', value: 'Herald' },
  });
  const html = NEWSLETTER_HTML.replace('<body', '<body data-x="{{ contact.name }}"').replace(
    '</body>',
    '<p>{{ contact.name }} · {{ contact.email }} · {{ contact.attributes.city }} · {{ contact.attributes.plan }} · {{ vars.company }}</p></body>',
  );
  const template = await app.inject({
    method: 'POST',
    url: '/api/data/templates',
    headers,
    payload:
      channel === 'EMAIL' ? { name: 'bench', channel, subject: SUBJECT, html } : { name: 'bench', channel, smsText: SMS_TEXT },
  });
  if (template.statusCode !== 200) throw new Error(`template: ${template.body}`);
  const campaign = await app.inject({
    method: 'POST',
    url: '/api/data/campaigns',
    headers,
    payload: { name: 'Bench', channel, listId: Number(list.id), templateName: 'bench', configId: provider.json().id },
  });
  if (campaign.statusCode !== 200) throw new Error(`campaign: ${campaign.body}`);
  await app.close();
  await database.close();
  return { campaignId: campaign.json().id as number, token };
}

async function heraldCampaign(sink: Sink, job: HeraldJob): Promise<HeraldReport> {
  const child = fork(path.join(repoRoot, 'bench/lib/dispatch-herald-process.mjs'), {
    env: serverEnv,
    execArgv: [
      ...serverNodeArgs,
      ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
    ],
  });
  const before = await sink.received();
  child.send(job);
  const [report] = (await once(child, 'message')) as [HeraldReport];
  await once(child, 'exit');
  const arrived = (await sink.received()) - before;
  if (arrived < count) throw new Error(`campaign: ${arrived} of ${count} arrived`);
  const database = openDatabase({ sqliteFile: path.join(job.dataDir, 'herald.db') });
  const statuses = await database.db
    .selectFrom('messages')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('status')
    .execute();
  await database.close();
  const sent = statuses.find((row) => row.status === 'sent');
  if (statuses.length !== 1 || Number(sent?.n) !== count) throw new Error(`campaign statuses: ${JSON.stringify(statuses)}`);
  return report;
}

const sink = await startSink();
const dataDir = mkdtempSync(path.join(tmpdir(), 'herald-dispatch-'));
const seedStarted = performance.now();
const seeded = await seed(dataDir, sink.port);
console.log(`seeded ${count} contacts in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);
// The machine is shared: the bare loop runs before and after Herald, and Herald is compared with their mean.
const bareBefore = await bareLoop(sink);
const herald = await heraldCampaign(sink, { ...seeded, dataDir });
const bareAfter = await bareLoop(sink);
const bare = (bareBefore.perSecond + bareAfter.perSecond) / 2;
const bareCpu = (bareBefore.cpuMsPerMessage + bareAfter.cpuMsPerMessage) / 2;
await stop(sink.child);
rmSync(dataDir, { recursive: true, force: true });
const perSecond = (count / herald.elapsedMs) * 1000;
const bareName = channel === 'EMAIL' ? 'bare nodemailer pooled loop' : 'bare smpp client loop';
console.log(
  `${bareName}: ${bareBefore.perSecond.toFixed(0)} msgs/s before and ${bareAfter.perSecond.toFixed(0)} msgs/s after Herald ` +
    `(${Math.min(count, BARE_MAX)} messages each), ${bareCpu.toFixed(2)} ms CPU per message`,
);
console.log(
  `Herald ${channel} campaign end to end: ${perSecond.toFixed(0)} msgs/s in ${(herald.elapsedMs / 1000).toFixed(1)} s, ` +
    `${((herald.cpuMs / count) * 1000).toFixed(0)} µs CPU per message in Herald, RSS ${herald.readyRssMb.toFixed(0)} MB at start, ` +
    `peak RSS ${herald.peakRssMb.toFixed(0)} MB, peak heap ${herald.peakHeapMb.toFixed(0)} MB`,
);
console.log(
  `summary: ${count} ${channel} recipients, Herald ${perSecond.toFixed(0)} msgs/s = ${(perSecond / bare).toFixed(2)}x the ${bareName} ` +
    `(${bare.toFixed(0)} msgs/s); CPU per message ${(bareCpu / (herald.cpuMs / count)).toFixed(2)}x as efficient; peak RSS ${herald.peakRssMb.toFixed(0)} MB`,
);
