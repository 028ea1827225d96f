/**
 * The queue's claim behind a backlog it must not send: N waiting messages of a paused campaign and N of a sending
 * campaign due tomorrow (a spent day limit), both older than the campaign claimed from, against the same claim with
 * no backlog, measured in the same run.
 * Each claim takes 200 due messages of a sending campaign, as the engine does, on SQLite or (--postgres) PostgreSQL.
 * Herald runs from its build: npm run build -w packages/shared -w apps/server, then
 *      npx tsx bench/claim.ts [backlog] [--postgres]   (default 1,000,000)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { DbQueue } from '../apps/server/dist/engine/queue.js';
import { insertBenchAccount, openScratchDatabase } from './lib/scratch-database.js';

const backlog = Number(process.argv[2] ?? 1_000_000);
const postgres = process.argv.includes('--postgres');
const BATCH = 200;
const CLAIMS = 50;
const DAY_MS = 86_400_000;

const dataDir = mkdtempSync(path.join(tmpdir(), 'herald-claim-'));
const { database, drop } = await openScratchDatabase(postgres ? 'postgres' : 'sqlite', dataDir, 'claim');
const { db } = database;
const now = Date.now();
const accountId = await insertBenchAccount(db, now);
const campaign = async (state: string) =>
  Number(
    (
      await db
        .insertInto('campaigns')
        .values({ account_id: accountId, name: state, channel: 'SMS', state, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id,
  );

/** `count` waiting SMS of a campaign, due at `due`, written by one insert-select as a campaign start does. */
async function waiting(campaignId: number, count: number, due: number): Promise<void> {
  await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${count})
    insert into messages (account_id, campaign_id, lane, channel, recipient, status, attempts, next_attempt_at, created_at, updated_at)
    select ${accountId}, ${campaignId}, 1, 'SMS', '+38050' || i, 'unsent', 0, ${due}, ${now}, ${now} from n`.execute(db);
}

/** Median milliseconds of a claim of BATCH due messages (claimed ones are put back, so every claim finds the same). */
async function timeClaims(campaignId: number): Promise<number> {
  const queue = new DbQueue({ db, dialect: database.dialect, owner: 'bench', leaseMs: 60_000 });
  const times: number[] = [];
  for (let i = 0; i < CLAIMS; i++) {
    const started = performance.now();
    const claimed = await queue.claim(BATCH, now + 1000);
    times.push(performance.now() - started);
    if (claimed.length !== BATCH || claimed.some((message) => message.campaignId !== campaignId))
      throw new Error(`claim ${i}: ${claimed.length} messages, not ${BATCH} of campaign ${campaignId}`);
    await queue.returnExpiredLeases(now, true);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

const first = await campaign('sending');
await waiting(first, BATCH * 5, now);
const bare = await timeClaims(first);
await db.updateTable('campaigns').set({ state: 'cancelled' }).where('id', '=', first).execute();
const seeded = performance.now();
await waiting(await campaign('paused'), backlog, now);
await waiting(await campaign('sending'), backlog, now + DAY_MS);
// The campaign claimed from is the newest: its messages come after the whole backlog in id order.
const behindBacklog = await campaign('sending');
await waiting(behindBacklog, BATCH * 5, now);
await sql`analyze`.execute(db);
console.log(`backlog of ${2 * backlog} messages written in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);
const behind = await timeClaims(behindBacklog);
await drop();
rmSync(dataDir, { recursive: true, force: true });
console.log(
  `summary: ${database.dialect}, claim of ${BATCH} behind ${backlog} paused + ${backlog} due tomorrow: ${behind.toFixed(2)} ms ` +
    `= ${(behind / bare).toFixed(2)}x the same claim with no backlog (${bare.toFixed(2)} ms)`,
);
