/**
 * Two `herald worker` processes send one campaign over PostgreSQL; one is killed with SIGKILL mid-campaign. The
 * other and a restarted one take its leases over once they run out and finish: nobody is lost, and the only
 * duplicates are what the dead worker had handed to the SMTP server without writing the status yet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PrivatePostgres, startPrivatePostgres } from '../helpers/private-services.js';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink.js';
import { waitFor } from '../helpers/wait.js';
import { ENGINE_WINDOW, HeraldUnderTest, printTally, tally } from './harness.js';

// More than one worker leases at once (4 batches of 200), so both have a share to send when one is killed.
const TOTAL = 1600;
let postgres: PrivatePostgres;
let herald: HeraldUnderTest;
let sink: SmtpSink;

beforeAll(async () => {
  postgres = await startPrivatePostgres();
  herald = await HeraldUnderTest.open({ databaseUrl: postgres.url });
  sink = await startSmtpSink();
});
afterAll(async () => {
  await herald?.close();
  await sink?.close();
  await postgres?.close();
});

describe('SIGKILL of a worker process mid-campaign (PostgreSQL, two workers)', () => {
  it('finishes with the surviving and a restarted worker: 0 lost, duplicates within the window', async () => {
    const account = await herald.account();
    // A day limit far above the campaign, so the slots the dead worker held are accounted for.
    const configId = await herald.sinkConfig(account, sink.port, 60, { limitPerDay: 1_000_000 });
    const addresses = Array.from({ length: TOTAL }, (_, i) => `kill${i}@example.com`);
    const doomed = herald.startWorker('A');
    herald.startWorker('B');
    const campaignId = await herald.startCampaign(account, { channel: 'EMAIL', addresses, configId });

    // Kill A in the middle of its work: both hold leases, and A has already written some of its messages as sent.
    const doomedOwner = `:${doomed.child.pid}`;
    let doomedPeak = 0;
    await waitFor(
      async () => {
        const owners = await herald.database.db
          .selectFrom('messages')
          .select(['lease_owner', (eb) => eb.fn.countAll<number>().as('n')])
          .where('campaign_id', '=', campaignId)
          .where('status', '=', 'processing')
          .groupBy('lease_owner')
          .execute();
        const held = Number(owners.find((row) => row.lease_owner?.endsWith(doomedOwner))?.n ?? 0);
        doomedPeak = Math.max(doomedPeak, held);
        return owners.length >= 2 && held > 0 && doomedPeak - held >= 50;
      },
      90_000,
      'both workers to be sending',
    );
    await doomed.kill('SIGKILL');
    const receivedAtKill = sink.messages.length;
    expect(receivedAtKill).toBeLessThan(TOTAL);
    herald.startWorker('C');

    await herald.waitSettled(campaignId, TOTAL, 120_000);
    const result = tally(
      addresses,
      sink.messages.map((message) => message.rcptTo[0]?.address ?? ''),
      await herald.messages(campaignId),
    );
    const used = await herald.usedToday(configId);
    printTally('worker SIGKILL', result, ENGINE_WINDOW, `killed after ${receivedAtKill} deliveries, day counter ${used}`);
    expect(result.lost).toEqual([]);
    expect(result.statuses).toEqual({ sent: TOTAL });
    expect(result.unique).toBe(TOTAL);
    // The dead worker's held slots come back with its leases; those it had handed to the server stay counted. So the
    // counter never falls behind what was sent (a limit is never exceeded across a crash) and runs ahead of it by at
    // most the in-flight window, instead of the whole batches it had reserved.
    expect(used).toBeGreaterThanOrEqual(result.received);
    expect(used - result.received).toBeLessThanOrEqual(ENGINE_WINDOW);
    expect(result.duplicates).toBeLessThanOrEqual(ENGINE_WINDOW);
    for (const worker of herald.workers.filter((w) => w !== doomed)) expect(worker.exited).toBe(false);
  });
});
