/**
 * Statistics over a big ledger: N generated messages (default 10,000,000) spread over 90 days, two channels, four
 * provider configs, 400 campaigns and 20 templates in 4 categories, with their history events and hourly and daily rollups,
 * written in bulk by SQL (generate_series / a recursive CTE) on SQLite and on PostgreSQL. Then times, as the
 * median of several runs, each report query (7, 30 and 90 days, with and without a category), the dashboard, and
 * message log pages (unfiltered, by status, recipient, config with a date range, campaign, a status rare in the
 * config holding most messages, a deep page) with their capped count, and one message with its history. Baseline in the same run: a primary-key lookup of one message.
 * Goal: each query ≤ 100 ms.
 * Run: npx tsx --conditions=source bench/stats.ts [--rows N] [--db sqlite|postgres|both] [--runs 7] [--keep] [--drop-kept]
 * (PostgreSQL at DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test, in a schema created and dropped here).
 * --keep keeps the databases in one place (KEPT_DIR, schema KEPT_SCHEMA) and a later --keep run reuses them
 * (migrating them to the latest schema) instead of generating again; delete them with --drop-kept.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { type DatabaseHandle, openDatabase } from '../apps/server/src/db/database.js';
import { migrateToLatest } from '../apps/server/src/db/migrate.js';
import { zoneOfAccount } from '../apps/server/src/stats/days.js';
import * as stats from '../apps/server/src/stats/service.js';

function flag(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : String(process.argv[index + 1]);
}

const ROWS = Number(flag('rows', '10000000'));
const RUNS = Number(flag('runs', '7'));
const WHICH = flag('db', 'both');
/** Keeps the generated database (SQLite file, PostgreSQL schema) for query plans and later runs, which reuse it. */
const KEEP = process.argv.includes('--keep');
const DROP_KEPT = process.argv.includes('--drop-kept');
const KEPT_DIR = path.join(tmpdir(), 'herald-bench-stats-kept');
const KEPT_SCHEMA = 'bench_stats_kept';
const DAYS = 90;
const CAMPAIGNS = 400;
const TEMPLATES = 20;
const CHUNK = 1_000_000;
const GOAL_MS = 100;
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** Time zone 044 (UTC+02:00, Europe/Helsinki first in its list) for the benchmark account: its days cross daylight saving. */
const ZONE_ID = '044';

const fmt = (value: number) => Math.round(value).toLocaleString('en-US');

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * Median wall time, and median CPU time of this process: on SQLite the query runs in this process, so on a
 * loaded machine the CPU figure shows the query's own cost where the wall time also holds the wait for a core.
 */
async function time(run: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  await run();
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const cpu = process.cpuUsage();
    await run();
    const used = process.cpuUsage(cpu);
    walls.push(performance.now() - started);
    cpus.push((used.user + used.system) / 1000);
  }
  return { wall: median(walls), cpu: median(cpus) };
}

async function openFresh(
  dialect: 'sqlite' | 'postgres',
  dir: string,
): Promise<{ database: DatabaseHandle; drop(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const database = openDatabase({ sqliteFile: path.join(dir, 'stats.sqlite') });
    return { database, drop: async () => {} };
  }
  const schema = KEEP ? KEPT_SCHEMA : `bench_stats_${process.pid}`;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  if (!KEEP) await admin.query(`drop schema if exists ${schema} cascade`);
  await admin.query(`create schema if not exists ${schema}`);
  await admin.end();
  const database = openDatabase({ databaseUrl: DATABASE_URL, pgSchema: schema });
  return {
    database,
    drop: async () => {
      const client = new pg.Client({ connectionString: DATABASE_URL });
      await client.connect();
      await client.query(`drop schema ${schema} cascade`);
      await client.end();
    },
  };
}

interface Fixture {
  accountId: number;
  otherAccountId: number;
  emailConfigs: [number, number];
  smsConfigs: [number, number];
  otherConfig: number;
  firstCampaign: number;
  firstTemplate: number;
  categories: number[];
  start: number;
}

/** The fixture of a kept database, found by the names fixture() gave it. */
async function keptFixture(database: DatabaseHandle): Promise<Fixture | null> {
  const { db } = database;
  const account = await db.selectFrom('accounts').select('id').where('email', '=', 'bench@example.com').executeTakeFirst();
  const other = await db.selectFrom('accounts').select('id').where('email', '=', 'other@example.com').executeTakeFirst();
  if (!account || !other) return null;
  const accountId = Number(account.id);
  const configs = new Map(
    (await db.selectFrom('provider_configs').select(['id', 'name']).execute()).map((row) => [row.name, Number(row.id)]),
  );
  const idOf = async (table: 'campaigns' | 'templates', name: string) =>
    Number((await db.selectFrom(table).select('id').where('name', '=', name).executeTakeFirstOrThrow()).id);
  const categories = await db
    .selectFrom('template_categories')
    .select('id')
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
  return {
    accountId,
    otherAccountId: Number(other.id),
    emailConfigs: [configs.get('SMTP main')!, configs.get('SMTP spare')!],
    smsConfigs: [configs.get('SMPP main')!, configs.get('HTTP SMS')!],
    otherConfig: configs.get('Other SMTP')!,
    firstCampaign: await idOf('campaigns', 'Campaign 0'),
    firstTemplate: await idOf('templates', 'template-0'),
    categories: categories.map((row) => Number(row.id)),
    // Message 0 was created at the start.
    start: Number(
      (await db.selectFrom('messages').select('created_at').orderBy('id').limit(1).executeTakeFirstOrThrow()).created_at,
    ),
  };
}

async function insertId(database: DatabaseHandle, statement: ReturnType<typeof sql>): Promise<number> {
  const result = await sql<{ id: number }>`${statement} returning id`.execute(database.db);
  return Number(result.rows[0]!.id);
}

async function fixture(database: DatabaseHandle): Promise<Fixture> {
  const now = Date.now();
  const account = (email: string) =>
    insertId(
      database,
      sql`insert into accounts (email, password_hash, time_zone_id, avatar, language, profile, is_admin, created_at, updated_at)
          values (${email}, 'x', ${ZONE_ID}, 'avatar-1.svg', 'en', 'site', 0, ${now}, ${now})`,
    );
  const accountId = await account('bench@example.com');
  const otherAccountId = await account('other@example.com');
  const config = (owner: number, name: string, category: string) =>
    insertId(
      database,
      sql`insert into provider_configs (account_id, type, category, name, settings, secrets, filter, created_at, updated_at)
          values (${owner}, ${category === 'EMAIL' ? 'sandbox-email' : 'sandbox-sms'}, ${category}, ${name}, '{}', '{}', '[]', ${now}, ${now})`,
    );
  const emailConfigs: [number, number] = [
    await config(accountId, 'SMTP main', 'EMAIL'),
    await config(accountId, 'SMTP spare', 'EMAIL'),
  ];
  const smsConfigs: [number, number] = [await config(accountId, 'SMPP main', 'SMS'), await config(accountId, 'HTTP SMS', 'SMS')];
  const otherConfig = await config(otherAccountId, 'Other SMTP', 'EMAIL');
  const categories: number[] = [];
  for (let c = 0; c < 4; c++) {
    categories.push(
      await insertId(
        database,
        sql`insert into template_categories (account_id, name, created_at) values (${accountId}, ${`Category ${c}`}, ${now})`,
      ),
    );
  }
  let firstTemplate = 0;
  for (let i = 0; i < TEMPLATES; i++) {
    const id = await insertId(
      database,
      sql`insert into templates (account_id, name, category_id, channel, subject, html, text, text_generated, sms_text, created_at, updated_at)
          values (${accountId}, ${`template-${i}`}, ${categories[i % 4]!}, ${i % 2 === 0 ? 'EMAIL' : 'SMS'}, 'Subject', '<p>x</p>', 'x', 0, 'x', ${now}, ${now})`,
    );
    if (i === 0) firstTemplate = id;
  }
  let firstCampaign = 0;
  for (let i = 0; i < CAMPAIGNS; i++) {
    const id = await insertId(
      database,
      sql`insert into campaigns (account_id, name, channel, state, template_id, total, suppressed, materialized_to, materialized, created_at, updated_at)
          values (${accountId}, ${`Campaign ${i}`}, ${i % 2 === 0 ? 'EMAIL' : 'SMS'}, 'sent', ${firstTemplate + (i % TEMPLATES)}, 0, 0, 0, 1, ${now}, ${now})`,
    );
    if (i === 0) firstCampaign = id;
  }
  return {
    accountId,
    otherAccountId,
    emailConfigs,
    smsConfigs,
    otherConfig,
    firstCampaign,
    firstTemplate,
    categories,
    start: now - DAYS * 86_400_000,
  };
}

/** Column expressions of message i (0..N-1), pseudo-random but repeatable, in plain SQL both databases run. */
function messageColumns(f: Fixture) {
  const span = DAYS * 86_400_000;
  const r = '((i * 2654435761) % 1000)';
  const other = 'i % 20 = 19';
  const sms = 'i % 5 = 0';
  // Campaigns follow time: message i belongs to the campaign running at its moment (even ids e-mail, odd SMS).
  const slot = `(i * ${CAMPAIGNS / 2} / ${ROWS})`;
  const campaign = `case when ${other} or i % 10 = 1 then null when ${sms} then ${f.firstCampaign} + ${slot} * 2 + 1 else ${f.firstCampaign} + ${slot} * 2 end`;
  const template = `case when ${other} then null when i % 10 = 1 then ${f.firstTemplate} + (i % ${TEMPLATES}) else ${f.firstTemplate} + ((${slot} * 2 + case when ${sms} then 1 else 0 end) % ${TEMPLATES}) end`;
  const status = `case
      when ${r} < 20 then 'unsent' when ${r} < 30 then 'filtered' when ${r} < 80 then 'failed'
      when ${r} < 160 then 'undelivered' when ${r} < 180 then 'unknown' when ${r} < 200 then 'sent_alternative'
      when ${r} < 350 then 'sent' when ${r} < 500 and not (${sms}) then 'read' else 'delivered' end`;
  const spare = '(i / 7) % 5 = 0';
  // 'unknown' e-mail goes to the spare config but for 1 in 97: a status common in the channel and rare in the main config.
  const config = `case when ${r} < 30 then null when ${other} then ${f.otherConfig}
      when ${sms} then case when ${spare} then ${f.smsConfigs[1]} else ${f.smsConfigs[0]} end
      when ${r} >= 160 and ${r} < 180 and i % 97 <> 0 then ${f.emailConfigs[1]}
      else case when ${spare} then ${f.emailConfigs[1]} else ${f.emailConfigs[0]} end end`;
  return {
    account_id: `case when ${other} then ${f.otherAccountId} else ${f.accountId} end`,
    campaign_id: campaign,
    lane: `case when i % 10 = 1 then 0 else 1 end`,
    channel: `case when ${sms} and not (${other}) then 'SMS' else 'EMAIL' end`,
    recipient: `case when ${sms} and not (${other}) then '+38050' || cast(1000000 + (i * 7) % 2000000 as text) else 'user' || cast((i * 7) % 2000000 as text) || '@example.com' end`,
    template_id: template,
    config_id: config,
    status,
    attempts: `case when ${r} < 30 then 0 when ${r} < 80 then 5 else 1 end`,
    next_attempt_at: `${f.start} + i * ${span} / ${ROWS}`,
    provider_message_id: `case when ${r} < 80 then null else 'pm-' || cast(i as text) end`,
    detail: `case when ${r} < 80 and ${r} >= 30 then 'connection refused' else null end`,
    locale: `case when i % 3 = 0 then 'uk' when i % 3 = 1 then 'en' else null end`,
    created_at: `${f.start} + i * ${span} / ${ROWS}`,
    updated_at: `${f.start} + i * ${span} / ${ROWS} + 60000`,
  };
}

async function generate(database: DatabaseHandle, f: Fixture): Promise<void> {
  const { db, dialect } = database;
  if (dialect === 'sqlite') {
    await sql`pragma synchronous = off`.execute(db);
    await sql`pragma cache_size = -1000000`.execute(db);
  }
  // Indexes are dropped for the load and built again after it: sorting once is far cheaper than 10M random inserts.
  const indexes =
    dialect === 'sqlite'
      ? (
          await sql<{ name: string; ddl: string }>`select name, sql as ddl from sqlite_master
            where type = 'index' and tbl_name in ('messages', 'message_events') and sql is not null`.execute(db)
        ).rows
      : (
          await sql<{ name: string; ddl: string }>`select indexname as name, indexdef as ddl from pg_indexes
            where schemaname = current_schema() and tablename in ('messages', 'message_events') and indexname not like '%pkey'`.execute(
            db,
          )
        ).rows;
  for (const index of indexes) await sql`drop index ${sql.id(index.name)}`.execute(db);

  const columns = messageColumns(f);
  const names = Object.keys(columns).join(', ');
  const values = Object.values(columns).join(', ');
  for (let from = 0; from < ROWS; from += CHUNK) {
    const to = Math.min(from + CHUNK, ROWS) - 1;
    const started = performance.now();
    const series =
      dialect === 'postgres'
        ? sql.raw(`select ${values} from (select cast(g as bigint) as i from generate_series(${from}, ${to}) g) s`)
        : sql.raw(
            `with recursive s(i) as (select ${from} union all select i + 1 from s where i < ${to}) select ${values} from s`,
          );
    await sql`insert into messages (${sql.raw(names)}) ${series}`.execute(db);
    process.stdout.write(`  messages ${fmt(to + 1)} (${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
  }
  let started = performance.now();
  await sql`insert into message_events (message_id, account_id, status, config_id, detail, at)
    select id, account_id, status, config_id, detail, updated_at from messages where status <> 'unsent'`.execute(db);
  console.log(`  events (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  started = performance.now();
  await sql`delete from message_rollup`.execute(db);
  await sql`insert into message_rollup (account_id, hour, channel, config_id, campaign_id, template_id, status, count)
    select account_id, cast(created_at / 3600000 as integer), channel, coalesce(config_id, 0), coalesce(campaign_id, 0),
           coalesce(template_id, 0), status, count(*)
    from messages
    group by account_id, cast(created_at / 3600000 as integer), channel, coalesce(config_id, 0), coalesce(campaign_id, 0),
             coalesce(template_id, 0), status`.execute(db);
  await sql`delete from message_rollup_daily`.execute(db);
  await sql`insert into message_rollup_daily (account_id, day, channel, config_id, campaign_id, template_id, status, count)
    select account_id, hour / 24, channel, config_id, campaign_id, template_id, status, sum(count)
    from message_rollup
    group by account_id, hour / 24, channel, config_id, campaign_id, template_id, status`.execute(db);
  console.log(`  rollups (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  started = performance.now();
  for (const index of indexes) await sql.raw(index.ddl).execute(db);
  console.log(`  ${indexes.length} indexes rebuilt (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  started = performance.now();
  // On PostgreSQL, vacuum sets the visibility map as autovacuum would on a live system, so index-only scans apply.
  await sql.raw(dialect === 'postgres' ? 'vacuum analyze' : 'analyze').execute(db);
  console.log(
    `  ${dialect === 'postgres' ? 'vacuum analyze' : 'analyze'} (${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );
}

async function measure(dialect: 'sqlite' | 'postgres', dir: string): Promise<string> {
  const { database, drop } = await openFresh(dialect, dir);
  try {
    await migrateToLatest(database);
    const kept = KEEP ? await keptFixture(database) : null;
    const f = kept ?? (await fixture(database));
    const generated = performance.now();
    if (kept) {
      console.log(`${dialect}: reusing the kept database`);
      // A table the migration just filled has no statistics yet (nor, on PostgreSQL, a visibility map).
      await sql.raw(`${dialect === 'postgres' ? 'vacuum analyze' : 'analyze'} message_rollup_daily`).execute(database.db);
    } else {
      console.log(`${dialect}: generating ${fmt(ROWS)} messages over ${DAYS} days`);
      await generate(database, f);
    }
    const origin = kept ? 'reused' : `generated in ${((performance.now() - generated) / 1000).toFixed(0)} s`;
    const rowsOf = async (table: string) =>
      Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(database.db)).rows[0]!.n);
    console.log(
      `${dialect}: ${origin}; ${fmt(await rowsOf('message_rollup'))} hourly and ${fmt(await rowsOf('message_rollup_daily'))} daily rollup rows`,
    );

    const { db } = database;
    const deps = { db };
    const zone = zoneOfAccount(ZONE_ID);
    const sampleId = Math.floor(ROWS / 2);
    const baseline = (await time(() => db.selectFrom('messages').selectAll().where('id', '=', sampleId).executeTakeFirst())).wall;
    const dateOf = (msAgo: number) => new Date(Date.now() - msAgo).toISOString().slice(0, 10);
    const sample = await db
      .selectFrom('messages')
      .select(['id', 'recipient'])
      .where('id', '>=', sampleId)
      .where('account_id', '=', f.accountId)
      .where('channel', '=', 'EMAIL')
      .orderBy('id')
      .limit(1)
      .executeTakeFirstOrThrow();
    const recipient = sample.recipient;
    const page = (query: Partial<stats.LogQuery>) => () =>
      stats.messageLog(deps, f.accountId, zone, 'email', { page: 1, size: 10, ...query });
    const cases: [string, () => Promise<unknown>][] = [
      ['report 7 days', () => stats.report(deps, f.accountId, zone, 'email', {})],
      ['report 30 days', () => stats.report(deps, f.accountId, zone, 'email', { dayCount: 30 })],
      ['report 90 days', () => stats.report(deps, f.accountId, zone, 'email', { dayCount: 90 })],
      ['report 90 days sms', () => stats.report(deps, f.accountId, zone, 'sms', { dayCount: 90 })],
      [
        'report 90 days, category',
        () => stats.report(deps, f.accountId, zone, 'email', { dayCount: 90, category: f.categories[0] }),
      ],
      [
        'report date range',
        () => stats.report(deps, f.accountId, zone, 'email', { dateRange: [dateOf(60 * 86_400_000), dateOf(30 * 86_400_000)] }),
      ],
      ['dashboard', () => stats.dashboard(deps, f.accountId, zone)],
      ['log page 1', page({})],
      ['log status=failed', page({ status: 'failed' })],
      ['log recipient', page({ recipient })],
      [
        'log config + 7-day range',
        page({ configId: f.emailConfigs[1], dateRange: [dateOf(50 * 86_400_000), dateOf(44 * 86_400_000)] }),
      ],
      ['log campaign', page({ campaignId: f.firstCampaign + 100 })],
      ['log status + campaign', page({ status: 'read', campaignId: f.firstCampaign + 100 })],
      ['log rare status + big config', page({ status: 'unknown', configId: f.emailConfigs[0] })],
      ['log page 100', page({ page: 100 })],
      ['message + history', () => stats.logMessage(deps, f.accountId, 'email', Number(sample.id))],
    ];
    console.log(`${dialect}: baseline primary-key lookup ${baseline.toFixed(2)} ms (median of ${RUNS})`);
    const slowest: [string, number] = ['', 0];
    for (const [name, run] of cases) {
      const { wall: ms, cpu } = await time(run);
      if (ms > slowest[1]) [slowest[0], slowest[1]] = [name, ms];
      // On PostgreSQL the query's CPU is the server's, not this process's; only the wall time says something.
      const cpuNote = dialect === 'sqlite' ? `  (CPU ${cpu.toFixed(1)} ms)` : '';
      console.log(
        `${dialect}: ${name.padEnd(28)} ${ms.toFixed(1).padStart(8)} ms${cpuNote}  ${(ms / baseline).toFixed(0).padStart(6)}x baseline  ${ms <= GOAL_MS ? 'ok' : 'OVER GOAL'}`,
      );
    }
    return `${dialect} slowest ${slowest[0]} ${slowest[1].toFixed(1)} ms (${(slowest[1] / baseline).toFixed(0)}x PK lookup, goal ${GOAL_MS} ms), ${origin}`;
  } finally {
    await database.close();
    if (KEEP)
      console.log(`${dialect}: kept in ${dialect === 'sqlite' ? path.join(dir, 'stats.sqlite') : `schema ${KEPT_SCHEMA}`}`);
    else await drop();
  }
}

async function dropKept(): Promise<void> {
  rmSync(KEPT_DIR, { recursive: true, force: true });
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  await client.query(`drop schema if exists ${KEPT_SCHEMA} cascade`);
  await client.end();
  console.log(`dropped ${KEPT_DIR} and schema ${KEPT_SCHEMA}`);
}

if (DROP_KEPT) {
  await dropKept();
  process.exit(0);
}
if (KEEP && !existsSync(KEPT_DIR)) mkdirSync(KEPT_DIR);
const dir = KEEP ? KEPT_DIR : mkdtempSync(path.join(tmpdir(), 'herald-bench-stats-'));
try {
  const results: string[] = [];
  for (const dialect of ['sqlite', 'postgres'] as const) {
    if (WHICH === 'both' || WHICH === dialect) results.push(await measure(dialect, dir));
  }
  console.log(`summary: ${fmt(ROWS)} messages over ${DAYS} days: ${results.join('; ')}`);
} finally {
  if (!KEEP) rmSync(dir, { recursive: true, force: true });
}
