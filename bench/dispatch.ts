/**
 * A whole e-mail campaign end to end — materialise, claim, render, send over SMTP, write statuses — against a
 * bare nodemailer pooled loop into the same loopback sink (a child process), measured in the same run.
 * Run: npx tsx --conditions=source bench/dispatch.ts [recipients]   (default 20000)
 */
import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { openDatabase } from '../apps/server/src/db/database.js';
import { migrateToLatest } from '../apps/server/src/db/migrate.js';
import { repoRoot, stop } from './lib/processes.js';
import { NEWSLETTER_HTML, recipient, SENDER, SUBJECT } from './lib/smtp-load.js';

const count = Number(process.argv[2] ?? 20_000);
const CONNECTIONS = 10;

const sink: ChildProcess = fork(path.join(repoRoot, 'bench/lib/smtp-sink-process.ts'), { execArgv: ['--import', 'tsx'] });
const [{ port }] = (await once(sink, 'message')) as [{ port: number }];

async function sinkCount(): Promise<number> {
  sink.send('count');
  const [{ count: received }] = (await once(sink, 'message')) as [{ count: number }];
  return received;
}

async function bareLoop(): Promise<number> {
  const transport = nodemailer.createTransport({
    pool: true,
    host: '127.0.0.1',
    port,
    secure: false,
    ignoreTLS: true,
    maxConnections: CONNECTIONS,
    maxMessages: Infinity,
  });
  const before = await sinkCount();
  const started = performance.now();
  const sends: Promise<unknown>[] = [];
  for (let i = 0; i < count; i++)
    sends.push(transport.sendMail({ from: SENDER, to: recipient(i), subject: SUBJECT, html: NEWSLETTER_HTML }));
  await Promise.all(sends);
  const elapsed = performance.now() - started;
  transport.close();
  if ((await sinkCount()) - before !== count) throw new Error('bare loop: not every message arrived');
  return (count / elapsed) * 1000;
}

async function heraldCampaign(): Promise<{ perSecond: number; peakRssMb: number }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'herald-dispatch-'));
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
  const headers = { 'x-token': signup.json().token as string };
  const smtp = await app.inject({
    method: 'POST',
    url: '/api/data/provider-configurations',
    headers,
    payload: {
      name: 'Sink',
      type: 'smtp',
      settings: { host: '127.0.0.1', port, security: 'none', senderEmail: SENDER, maxConnections: CONNECTIONS },
    },
  });
  const account = await database.db.selectFrom('accounts').select('id').executeTakeFirstOrThrow();
  const now = Date.now();
  const list = await database.db
    .insertInto('contact_lists')
    .values({ account_id: account.id, name: 'Bench', created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (let start = 0; start < count; start += 5000) {
    const rows = Array.from({ length: Math.min(5000, count - start) }, (_, offset) => ({
      account_id: account.id,
      list_id: list.id,
      email: recipient(start + offset),
      phone: null,
      name: `Reader ${start + offset}`,
      attributes: JSON.stringify({ city: 'Kyiv', plan: 'pro' }),
      created_at: now,
      updated_at: now,
    }));
    for (let i = 0; i < rows.length; i += 500)
      await database.db
        .insertInto('contacts')
        .values(rows.slice(i, i + 500))
        .execute();
  }
  await database.db
    .updateTable('contact_lists')
    .set({ total_count: count, email_count: count })
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
  await app.inject({
    method: 'POST',
    url: '/api/data/templates',
    headers,
    payload: { name: 'bench', channel: 'EMAIL', subject: SUBJECT, html },
  });
  const campaign = await app.inject({
    method: 'POST',
    url: '/api/data/campaigns',
    headers,
    payload: { name: 'Bench', channel: 'EMAIL', listId: Number(list.id), templateName: 'bench', configId: smtp.json().id },
  });
  const id = campaign.json().id as number;
  const before = await sinkCount();
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 100);
  const started = performance.now();
  await app.inject({ method: 'POST', url: `/api/data/campaigns/${id}/start`, headers, payload: {} });
  await app.engine.start();
  app.campaigns.start();
  for (;;) {
    const row = await database.db.selectFrom('campaigns').select('state').where('id', '=', id).executeTakeFirstOrThrow();
    if (row.state === 'sent') break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const elapsed = performance.now() - started;
  clearInterval(sampler);
  const arrived = (await sinkCount()) - before;
  await app.close();
  await database.close();
  if (arrived < count) throw new Error(`campaign: ${arrived} of ${count} arrived`);
  return { perSecond: (count / elapsed) * 1000, peakRssMb: peakRss / 1024 / 1024 };
}

const bare = await bareLoop();
const herald = await heraldCampaign();
await stop(sink);
console.log(`bare nodemailer pooled loop: ${bare.toFixed(0)} msgs/s`);
console.log(`Herald campaign end to end: ${herald.perSecond.toFixed(0)} msgs/s, peak RSS ${herald.peakRssMb.toFixed(0)} MB`);
console.log(
  `summary: ${count} recipients, Herald ${herald.perSecond.toFixed(0)} msgs/s = ${(herald.perSecond / bare).toFixed(2)}x the bare loop (${bare.toFixed(0)} msgs/s), peak RSS ${herald.peakRssMb.toFixed(0)} MB`,
);
