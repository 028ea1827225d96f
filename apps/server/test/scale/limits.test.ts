/**
 * Limits shared by two `herald worker` processes in scale mode: a day limit of N sends exactly N (reserved in the
 * database), and a config's messages-per-second holds for both together (a Redis token bucket), not per process.
 * The workers run with leases far shorter than a paced job takes: a job that outlasts its lease is still sent once,
 * because the dispatcher renews the leases of the messages in flight instead of letting them be handed back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertMessages } from '../../src/messages/ledger.js';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink.js';
import { waitFor } from '../helpers/wait.js';
import {
  arrivals,
  campaignStatuses,
  listOf,
  providerConfig,
  type ScaleCluster,
  scaleSkipReason,
  startCampaign,
  startCluster,
} from './helpers.js';

const skipReason = await scaleSkipReason();
if (skipReason) console.warn(`scale-mode limit tests skipped: ${skipReason}`);

/** Far shorter than sending one job takes at the paced configs' rates. */
const LEASE_MS = 3000;
let cluster: ScaleCluster | undefined;
let sink: SmtpSink;
const arrivedAt = new Map<string, number>();

beforeAll(async () => {
  if (skipReason) return;
  sink = await startSmtpSink({
    onMessage: (message) => arrivedAt.set(message.rcptTo[0]?.address ?? '', Date.now()),
  });
  cluster = await startCluster('limits');
  cluster.startWorker({ HERALD_LEASE_MS: String(LEASE_MS) });
  cluster.startWorker({ HERALD_LEASE_MS: String(LEASE_MS) });
  await cluster.waitForWorkers(2);
}, 120_000);

afterAll(async () => {
  await cluster?.close();
  await sink?.close();
});

/** The sandbox provider reports deliveries after sending: a message that went out ends in one of these. */
const WENT_OUT = ['sent', 'delivered', 'undelivered'];
const wentOut = (counts: Record<string, number>) => WENT_OUT.reduce((sum, status) => sum + (counts[status] ?? 0), 0);

function emails(c: ScaleCluster, tag: string, count: number, configId: number) {
  return Array.from({ length: count }, (_, i) => ({
    accountId: c.accountId,
    campaignId: null,
    lane: 0,
    channel: 'EMAIL',
    recipient: `${tag}${i}@example.com`,
    routeConfigId: configId,
    payload: JSON.stringify({ subject: `Hello ${i}`, text: 'Hello' }),
  }));
}

async function statuses(c: ScaleCluster, configId: number): Promise<Record<string, number>> {
  const rows = await c.t.database.db
    .selectFrom('messages')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('route_config_id', '=', configId)
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
}

describe.skipIf(skipReason !== undefined)('scale mode: limits shared by worker processes', () => {
  it('stops at exactly the day limit', { timeout: 90_000 }, async () => {
    const c = cluster!;
    const limit = 25;
    const total = 120;
    const configId = await providerConfig(c, { name: 'Limited', type: 'sandbox-email', limitPerDay: limit });
    await insertMessages(c.t.database.db, emails(c, 'day', total, configId));
    let counts: Record<string, number> = {};
    await waitFor(
      async () => {
        counts = await statuses(c, configId);
        return wentOut(counts) === limit && counts.unsent === total - limit;
      },
      60_000,
      'the limit to be reached',
    );
    // Nothing more goes out afterwards: the rest wait for tomorrow.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    counts = await statuses(c, configId);
    expect(wentOut(counts)).toBe(limit);
    expect(Object.keys(counts).filter((status) => status !== 'unsent' && !WENT_OUT.includes(status))).toEqual([]);
    expect(counts.unsent).toBe(total - limit);
  });

  it('holds a config rate across both workers', { timeout: 90_000 }, async () => {
    const c = cluster!;
    const rate = 20;
    const total = 100;
    const configId = await providerConfig(c, {
      name: 'Paced',
      type: 'smtp',
      settings: {
        host: '127.0.0.1',
        port: sink.port,
        security: 'none',
        senderEmail: 'news@herald.test',
        messagesPerSecond: rate,
      },
    });
    await insertMessages(c.t.database.db, emails(c, 'rate', total, configId));
    await waitFor(async () => (await statuses(c, configId)).sent === total, 60_000, 'every message sent');
    const times = [...arrivedAt.entries()].filter(([to]) => to.startsWith('rate')).map(([, at]) => at);
    const spanMs = Math.max(...times) - Math.min(...times);
    // A quarter of a second of tokens to start with, then `rate` a second for both workers together: at least
    // (total - rate / 4) / rate seconds. Each worker pacing alone would take half that.
    console.log(`shared rate ${rate}/s over two workers: ${total} messages in ${spanMs} ms`);
    expect(times).toHaveLength(total);
    expect(spanMs).toBeGreaterThanOrEqual(((total - rate / 4) / rate) * 1000 * 0.9);
  });

  it("sends an API message within moments while campaign jobs fill every worker's slots", { timeout: 90_000 }, async () => {
    const c = cluster!;
    const { db } = c.t.database;
    const configId = await providerConfig(c, {
      name: 'Busy',
      type: 'smtp',
      settings: { host: '127.0.0.1', port: sink.port, security: 'none', senderEmail: 'news@herald.test', messagesPerSecond: 100 },
    });
    // 30 jobs of 200 at 100/s: both workers' 4 slots busy for 16 s each, and the campaign queue full behind them. A message
    // waiting for a slot waits seconds (4.8 s measured at 200/s); one of the API's queue only for the shared pace.
    const campaignId = await startCampaign(c, await listOf(c, 'bulk', 6000), configId, 'bulk');
    await waitFor(async () => ((await campaignStatuses(c, campaignId)).sent ?? 0) >= 400, 30_000, 'the campaign sending');
    const storedAt = Date.now();
    await insertMessages(db, emails(c, 'urgent', 1, configId));
    await waitFor(async () => arrivedAt.has('urgent0@example.com'), 30_000, 'the API message at the server');
    const latency = arrivedAt.get('urgent0@example.com')! - storedAt;
    await db.updateTable('campaigns').set({ state: 'cancelled' }).where('id', '=', campaignId).execute();
    console.log(`an API message behind a busy campaign reached the server in ${latency} ms`);
    expect(latency).toBeLessThan(3000);
  });

  it('sends each message once when a job outlasts the lease', { timeout: 90_000 }, async () => {
    const c = cluster!;
    const total = 60;
    const configId = await providerConfig(c, {
      name: 'Slow',
      type: 'smtp',
      settings: { host: '127.0.0.1', port: sink.port, security: 'none', senderEmail: 'news@herald.test', messagesPerSecond: 5 },
    });
    await insertMessages(c.t.database.db, emails(c, 'slow', total, configId));
    await waitFor(async () => (await statuses(c, configId)).sent === total, 80_000, 'every message sent');
    // Anything handed back by mistake would be sent again within a lease or two.
    await new Promise((resolve) => setTimeout(resolve, 2 * LEASE_MS));
    const perRecipient = arrivals(
      sink.messages.map((message) => message.rcptTo[0]?.address).filter((to) => to?.startsWith('slow')),
    );
    expect(perRecipient.size).toBe(total);
    expect([...perRecipient.values()].filter((n) => n > 1)).toEqual([]);
  });
});
