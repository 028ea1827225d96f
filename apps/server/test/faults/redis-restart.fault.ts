/**
 * Scale mode (PostgreSQL + Redis, BullMQ jobs): the suite's own Redis is killed mid-campaign, losing every queued job
 * (it persists nothing), and started again. The workers survive, the leases of the lost jobs run out, the scheduler
 * leases those messages into new jobs, and the campaign finishes with nobody lost.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PrivatePostgres, type PrivateRedis, startPrivatePostgres, startPrivateRedis } from '../helpers/private-services.js';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink.js';
import { waitFor } from '../helpers/wait.js';
import { ENGINE_WINDOW, HeraldUnderTest, printTally, tally } from './harness.js';

const TOTAL = 900;
const OUTAGE_MS = 3000;
let postgres: PrivatePostgres;
let redis: PrivateRedis;
let herald: HeraldUnderTest;
let sink: SmtpSink;

beforeAll(async () => {
  postgres = await startPrivatePostgres();
  redis = await startPrivateRedis();
  herald = await HeraldUnderTest.open({ databaseUrl: postgres.url, redisUrl: redis.url });
  sink = await startSmtpSink();
});
afterAll(async () => {
  await herald?.close();
  await sink?.close();
  await redis?.close();
  await postgres?.close();
});

describe('Redis restarted mid-campaign (scale mode, two workers)', () => {
  it('loses no message when the queued jobs are lost with Redis, and the workers carry on', async () => {
    const account = await herald.account();
    const configId = await herald.sinkConfig(account, sink.port, 80);
    const addresses = Array.from({ length: TOTAL }, (_, i) => `redis${i}@example.com`);
    const workers = [herald.startWorker('A'), herald.startWorker('B')];
    const campaignId = await herald.startCampaign(account, { channel: 'EMAIL', addresses, configId });

    await waitFor(() => sink.messages.length >= 200, 90_000, '200 deliveries before Redis goes');
    const receivedAtStop = sink.messages.length;
    await redis.stop();
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
    for (const worker of workers) worker.assertAlive();
    await redis.start();
    const restartedAt = Date.now();

    await herald.waitSettled(campaignId, TOTAL, 120_000);
    const recoveryMs = Date.now() - restartedAt;
    const result = tally(
      addresses,
      sink.messages.map((message) => message.rcptTo[0]?.address ?? ''),
      await herald.messages(campaignId),
    );
    printTally(
      'Redis restart',
      result,
      ENGINE_WINDOW,
      `Redis killed after ${receivedAtStop} deliveries for ${OUTAGE_MS} ms, finished ${recoveryMs} ms after its restart`,
    );
    for (const worker of workers) worker.assertAlive();
    expect(receivedAtStop).toBeLessThan(TOTAL);
    expect(result.lost).toEqual([]);
    expect(result.statuses).toEqual({ sent: TOTAL });
    expect(result.unique).toBe(TOTAL);
    expect(result.duplicates).toBeLessThanOrEqual(ENGINE_WINDOW);
  });
});
