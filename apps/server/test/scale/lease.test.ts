/**
 * A BullMQ job a worker keeps longer than a lease (a provider paced at a low rate) is not handed back while that
 * worker is still sending it: the dispatcher renews the leases of the messages in flight, so none is sent twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertMessages } from '../../src/messages/ledger.js';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink.js';
import { arrivals, providerConfig, type ScaleCluster, scaleSkipReason, startCluster, waitFor } from './helpers.js';

const skipReason = await scaleSkipReason();
if (skipReason) console.warn(`scale-mode lease tests skipped: ${skipReason}`);

/** Far shorter than sending one job takes at the config's rate. */
const LEASE_MS = 3000;
let cluster: ScaleCluster | undefined;
let sink: SmtpSink;

beforeAll(async () => {
  if (skipReason) return;
  sink = await startSmtpSink();
  cluster = await startCluster('lease');
  cluster.startWorker({ HERALD_LEASE_MS: String(LEASE_MS) });
  cluster.startWorker({ HERALD_LEASE_MS: String(LEASE_MS) });
  await cluster.waitForWorkers(2);
}, 120_000);

afterAll(async () => {
  await cluster?.close();
  await sink?.close();
});

describe.skipIf(skipReason !== undefined)('scale mode: leases of a slow batch', () => {
  it('sends each message once when a job outlasts the lease', { timeout: 90_000 }, async () => {
    const c = cluster!;
    const total = 60;
    const configId = await providerConfig(c, {
      name: 'Slow',
      type: 'smtp',
      settings: { host: '127.0.0.1', port: sink.port, security: 'none', senderEmail: 'news@herald.test', messagesPerSecond: 5 },
    });
    await insertMessages(
      c.t.database.db,
      Array.from({ length: total }, (_, i) => ({
        accountId: c.accountId,
        campaignId: null,
        lane: 0,
        channel: 'EMAIL',
        recipient: `slow${i}@example.com`,
        routeConfigId: configId,
        payload: JSON.stringify({ subject: `Hello ${i}`, text: 'Hello' }),
      })),
    );
    const sent = async () =>
      Number(
        (
          await c.t.database.db
            .selectFrom('messages')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('route_config_id', '=', configId)
            .where('status', '=', 'sent')
            .executeTakeFirstOrThrow()
        ).n,
      );
    await waitFor(async () => (await sent()) === total, 80_000, 'every message sent');
    // Anything handed back by mistake would be sent again within a lease or two.
    await new Promise((resolve) => setTimeout(resolve, 2 * LEASE_MS));
    const perRecipient = arrivals(sink.messages.map((message) => message.rcptTo[0]?.address));
    expect(perRecipient.size).toBe(total);
    expect([...perRecipient.values()].filter((n) => n > 1)).toEqual([]);
  });
});
