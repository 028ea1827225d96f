/**
 * Scale mode end to end: campaigns started through the API (a `herald api` app) are delivered by two
 * `herald worker` processes through BullMQ into an SMTP sink, every recipient exactly once; and a worker
 * killed with SIGKILL mid-campaign loses nothing, doubling at most the messages it had in flight.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IN_FLIGHT_WINDOW } from '../../src/engine/dispatcher.js';
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
if (skipReason) console.warn(`scale-mode campaign tests skipped: ${skipReason}`);

let cluster: ScaleCluster | undefined;
let sink: SmtpSink;

beforeAll(async () => {
  if (skipReason) return;
  sink = await startSmtpSink();
  cluster = await startCluster('campaign');
  cluster.startWorker();
  cluster.startWorker();
  await cluster.waitForWorkers(2);
}, 120_000);

afterAll(async () => {
  await cluster?.close();
  await sink?.close();
});

function received(tag: string): Map<string, number> {
  return arrivals(sink.messages.map((message) => message.rcptTo[0]?.address).filter((to) => to?.startsWith(tag)));
}

describe.skipIf(skipReason !== undefined)('scale mode: BullMQ between API and worker processes', () => {
  it('delivers a campaign through two workers, every recipient exactly once', { timeout: 120_000 }, async () => {
    const c = cluster!;
    const total = 2000;
    const configId = await providerConfig(c, {
      name: 'Sink',
      type: 'smtp',
      settings: { host: '127.0.0.1', port: sink.port, security: 'none', senderEmail: 'news@herald.test' },
    });
    const campaignId = await startCampaign(c, await listOf(c, 'once', total), configId, 'once');
    await waitFor(async () => (await campaignStatuses(c, campaignId)).sent === total, 90_000, 'every message sent');
    await waitFor(
      async () =>
        (await c.t.database.db.selectFrom('campaigns').select('state').where('id', '=', campaignId).executeTakeFirstOrThrow())
          .state === 'sent',
      30_000,
      'the campaign to finish',
    );
    const perRecipient = received('once');
    expect(perRecipient.size).toBe(total);
    expect([...perRecipient.values()].every((n) => n === 1)).toBe(true);
    // Every message went out through a BullMQ job, and both workers took jobs.
    await waitFor(() => c.completed.reduce((sum, job) => sum + job.messages, 0) >= total, 10_000, 'job events');
    expect(c.completed.reduce((sum, job) => sum + job.messages, 0)).toBe(total);
    expect(new Set(c.completed.map((job) => job.worker)).size).toBe(2);
  });

  it('loses nothing when a worker is killed mid-campaign', { timeout: 180_000 }, async () => {
    const c = cluster!;
    const total = 1500;
    const configId = await providerConfig(c, {
      name: 'Paced sink',
      type: 'smtp',
      settings: { host: '127.0.0.1', port: sink.port, security: 'none', senderEmail: 'news@herald.test', messagesPerSecond: 150 },
    });
    const campaignId = await startCampaign(c, await listOf(c, 'kill', total), configId, 'kill');
    await waitFor(() => received('kill').size >= 300, 60_000, 'sending to start');
    const victim = c.workers[0]!;
    victim.kill('SIGKILL');
    await new Promise((resolve) => victim.once('exit', resolve));
    const atKill = [...received('kill').values()].reduce((a, b) => a + b, 0);
    expect(atKill).toBeLessThan(total);

    // The victim's jobs stall and go to the other worker (or, failing that, their leases run out).
    await waitFor(async () => (await campaignStatuses(c, campaignId)).sent === total, 160_000, 'every message sent');
    const perRecipient = received('kill');
    const lost = Array.from({ length: total }, (_, i) => `kill${i}@example.com`).filter((to) => !perRecipient.has(to));
    const delivered = [...perRecipient.values()].reduce((a, b) => a + b, 0);
    const duplicates = delivered - perRecipient.size;
    console.log(
      `scale mode, worker SIGKILL after ${atKill} of ${total} delivered: ${lost.length} lost; ${duplicates} duplicates (in-flight window ${IN_FLIGHT_WINDOW})`,
    );
    expect(lost).toEqual([]);
    expect(await campaignStatuses(c, campaignId)).toEqual({ sent: total });
    expect(duplicates).toBeLessThanOrEqual(IN_FLIGHT_WINDOW);
  });
});
