/**
 * One scheduler at a time: of two `herald worker` processes one holds the scheduler lock; killed with SIGKILL,
 * the other takes over within seconds, and campaigns started before and after keep materialising exactly once.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait.js';
import {
  campaignStatuses,
  listOf,
  providerConfig,
  type ScaleCluster,
  scaleSkipReason,
  startCampaign,
  startCluster,
} from './helpers.js';

const skipReason = await scaleSkipReason();
if (skipReason) console.warn(`scheduler lock tests skipped: ${skipReason}`);

const RECIPIENTS = 2000;
/** The sandbox provider reports deliveries after sending: each message ends in one of these. */
const SETTLED = ['sent', 'delivered', 'undelivered'];
let cluster: ScaleCluster | undefined;

beforeAll(async () => {
  if (skipReason) return;
  cluster = await startCluster('lock');
  cluster.startWorker();
  cluster.startWorker();
  await cluster.waitForWorkers(2);
}, 120_000);

afterAll(async () => {
  await cluster?.close();
});

/** The process holding this schema's scheduler lock, by the application name its lock connection carries. */
async function holderPid(c: ScaleCluster): Promise<number | undefined> {
  const { rows } = await sql<{ name: string }>`
    select a.application_name as name
    from pg_locks l join pg_stat_activity a on a.pid = l.pid
    where l.locktype = 'advisory' and l.granted
      and l.objid::bigint = (hashtext('herald-scheduler:' || current_schema())::bigint & 4294967295)`.execute(c.t.database.db);
  const name = rows[0]?.name;
  return name ? Number(name.split(':').pop()) : undefined;
}

/** Each contact of the campaign's list has exactly one message. */
async function materialisedOnce(c: ScaleCluster, campaignId: number): Promise<{ messages: number; contacts: number }> {
  const row = await c.t.database.db
    .selectFrom('messages')
    .select([
      (eb) => eb.fn.countAll<number>().as('messages'),
      (eb) => eb.fn.count<number>('contact_id').distinct().as('contacts'),
    ])
    .where('campaign_id', '=', campaignId)
    .executeTakeFirstOrThrow();
  return { messages: Number(row.messages), contacts: Number(row.contacts) };
}

describe.skipIf(skipReason !== undefined)('scale mode: the scheduler lock', () => {
  it('fails over to the other process when the holder is killed', { timeout: 180_000 }, async () => {
    const c = cluster!;
    const pids = c.workers.map((worker) => worker.pid!);
    await waitFor(async () => (await holderPid(c)) !== undefined, 30_000, 'a scheduler');
    const holder = await holderPid(c);
    expect(pids).toContain(holder);

    const configId = await providerConfig(c, { name: 'Sandbox', type: 'sandbox-email' });
    const before = await startCampaign(c, await listOf(c, 'before', RECIPIENTS), configId, 'before');
    await waitFor(async () => (await materialisedOnce(c, before)).messages > 0, 60_000, 'the first campaign to materialise');

    const victim = c.workers[pids.indexOf(holder!)]!;
    const killedAt = Date.now();
    victim.kill('SIGKILL');
    await waitFor(
      async () => {
        const now = await holderPid(c);
        return now !== undefined && now !== holder;
      },
      30_000,
      'a new scheduler',
    );
    const takeoverMs = Date.now() - killedAt;
    const next = await holderPid(c);
    console.log(`scheduler lock: process ${holder} killed, ${next} took over in ${takeoverMs} ms`);
    expect(pids).toContain(next);
    expect(takeoverMs).toBeLessThan(10_000);

    const after = await startCampaign(c, await listOf(c, 'after', RECIPIENTS), configId, 'after');
    for (const campaignId of [before, after]) {
      await waitFor(
        async () =>
          (await c.t.database.db.selectFrom('campaigns').select('state').where('id', '=', campaignId).executeTakeFirstOrThrow())
            .state === 'sent',
        150_000,
        `campaign ${campaignId} to finish`,
      );
      expect(await materialisedOnce(c, campaignId)).toEqual({ messages: RECIPIENTS, contacts: RECIPIENTS });
      const statuses = await campaignStatuses(c, campaignId);
      expect(Object.keys(statuses).filter((status) => !SETTLED.includes(status))).toEqual([]);
      expect(Object.values(statuses).reduce((a, b) => a + b, 0)).toBe(RECIPIENTS);
    }
  });
});
