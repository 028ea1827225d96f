/**
 * The suite's own PostgreSQL is stopped mid-campaign (a fast shutdown, later an immediate one, as after a crash) and
 * started again: the worker process survives the broken connections, reconnects through its pool, and finishes the
 * campaign with nobody lost and nobody sent twice: the statuses of what was sent during an outage are written once the
 * database is back, before the messages' leases are handed back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PrivatePostgres, startPrivatePostgres } from '../helpers/private-services.js';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink.js';
import { waitFor } from '../helpers/wait.js';
import { ENGINE_WINDOW, HeraldUnderTest, printTally, tally } from './harness.js';

const TOTAL = 900;
/** How long the database stays away each time: longer than a lease, so leases run out meanwhile too. */
const OUTAGE_MS = 5000;
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

describe('PostgreSQL restarted mid-campaign', () => {
  it('the worker survives a fast and an immediate shutdown and finishes: 0 lost, 0 sent twice', async () => {
    const account = await herald.account();
    const configId = await herald.sinkConfig(account, sink.port, 60);
    const addresses = Array.from({ length: TOTAL }, (_, i) => `pg${i}@example.com`);
    const worker = herald.startWorker('A');
    const campaignId = await herald.startCampaign(account, { channel: 'EMAIL', addresses, configId });

    const outages: string[] = [];
    for (const [mode, after] of [
      ['fast', 150],
      ['immediate', 450],
    ] as const) {
      await waitFor(() => sink.messages.length >= after, 90_000, `${after} deliveries before the ${mode} shutdown`);
      const at = sink.messages.length;
      await postgres.stop(mode);
      await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
      worker.assertAlive();
      await postgres.start();
      outages.push(`${mode} at ${at}`);
    }

    await herald.waitSettled(campaignId, TOTAL, 120_000);
    const result = tally(
      addresses,
      sink.messages.map((message) => message.rcptTo[0]?.address ?? ''),
      await herald.messages(campaignId),
    );
    // What a crash during each outage could have sent twice, printed for comparison: an outage alone sends nothing twice.
    const window = ENGINE_WINDOW * outages.length;
    const used = await herald.usedToday(configId);
    printTally('PostgreSQL restart', result, window, `outages ${outages.join(', ')} (${OUTAGE_MS} ms each), day counter ${used}`);
    worker.assertAlive();
    expect(result.lost).toEqual([]);
    expect(result.statuses).toEqual({ sent: TOTAL });
    expect(result.unique).toBe(TOTAL);
    // Slots a batch reserved and could not use are given back once the database is back: the day counter is exact.
    expect(used).toBe(result.received);
    expect(result.duplicates).toBe(0);
  });
});
