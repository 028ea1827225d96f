/**
 * Providers that fail mid-conversation, against one `herald worker` process on the suite's own PostgreSQL (the two
 * campaigns run side by side, so their retry waits overlap):
 * - an SMTP server that drops the connection in the middle of DATA for some messages: those are retried
 *   (`resending`) and delivered once each, and a cut DATA is never counted as sent;
 * - an SMSC that drops every bind, then stops answering submit_sm for a while: no message is marked sent without its
 *   submit_sm_resp, everything within the day limit is delivered after recovery, and the limit holds exactly.
 */
import type { AddressInfo, Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PrivatePostgres, startPrivatePostgres } from '../helpers/private-services.js';
import { type SmppTestServer, startSmppServer } from '../helpers/smpp-server.js';
import { waitFor } from '../helpers/wait.js';
import { HeraldUnderTest, printTally, tally, type WorkerProcess } from './harness.js';

let postgres: PrivatePostgres;
let herald: HeraldUnderTest;
let worker: WorkerProcess;

beforeAll(async () => {
  postgres = await startPrivatePostgres();
  herald = await HeraldUnderTest.open({ databaseUrl: postgres.url });
  worker = herald.startWorker('A');
});
afterAll(async () => {
  await herald?.close();
  await postgres?.close();
});

/** Each message's history of statuses, oldest first. */
async function histories(campaignId: number): Promise<Map<string, string[]>> {
  const rows = await herald.database.db
    .selectFrom('message_events')
    .innerJoin('messages', 'messages.id', 'message_events.message_id')
    .select(['messages.recipient', 'message_events.status'])
    .where('messages.campaign_id', '=', campaignId)
    .orderBy('message_events.id')
    .execute();
  const byRecipient = new Map<string, string[]>();
  for (const row of rows) {
    const history = byRecipient.get(row.recipient) ?? [];
    history.push(row.status);
    byRecipient.set(row.recipient, history);
  }
  return byRecipient;
}

interface CuttingSink {
  port: number;
  /** Recipients of every message the sink accepted (answered 250 to the end of DATA). */
  accepted: string[];
  /** Recipients whose DATA the sink cut off by dropping the connection. */
  cut: Set<string>;
  close(): Promise<void>;
}

/**
 * An SMTP server that, the first time it receives a chosen recipient's message, drops the TCP connection after the
 * first part of DATA arrived, without answering; every other message (and the retry) is accepted.
 */
async function startCuttingSink(shouldCut: (recipient: string) => boolean): Promise<CuttingSink> {
  const accepted: string[] = [];
  const cut = new Set<string>();
  const server: SMTPServer = new SMTPServer({
    logger: false,
    disableReverseLookup: true,
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    closeTimeout: 500,
    onData(stream, session, callback) {
      const recipient = session.envelope.rcptTo[0]?.address ?? '';
      if (shouldCut(recipient) && !cut.has(recipient)) {
        stream.once('data', () => {
          cut.add(recipient);
          // smtp-server keeps its connections (with their sockets) by session id; the API offers no other way to drop one.
          const connections = (server as unknown as { connections: Set<{ id: string; _socket: Socket }> }).connections;
          for (const connection of connections) if (connection.id === session.id) connection._socket.destroy();
        });
        stream.resume();
        return;
      }
      stream.on('end', () => {
        accepted.push(recipient);
        callback(null, 'OK: queued');
      });
      stream.resume();
    },
  });
  server.on('error', () => {
    // The connections this sink drops on purpose end in errors.
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    accepted,
    cut,
    close: () => new Promise<void>((resolve) => server.close(resolve)),
  };
}

describe('providers failing mid-conversation', () => {
  it.concurrent('SMTP drops the connection mid-DATA: retried, delivered once each, a cut DATA never counted as sent', async () => {
    const TOTAL = 400;
    const addresses = Array.from({ length: TOTAL }, (_, i) => `cut${i}@example.com`);
    const chosen = new Set(addresses.filter((_, i) => i % 20 === 7));
    const sink = await startCuttingSink((recipient) => chosen.has(recipient));
    try {
      const account = await herald.account();
      const configId = await herald.providerConfig(account, {
        name: 'Cutting sink',
        type: 'smtp',
        limitPerDay: 100_000,
        settings: {
          host: '127.0.0.1',
          port: sink.port,
          security: 'none',
          senderEmail: 'news@herald.test',
          messagesPerSecond: 100,
        },
      });
      // Big enough for DATA to arrive in several parts, so the cut really falls in the middle of the message.
      const html = `<p>${'Herald fault suite. '.repeat(3000)}</p>`;
      const campaignId = await herald.startCampaign(account, { channel: 'EMAIL', addresses, configId, html });

      // While the cut messages wait for their retry, none of them may be sent.
      await waitFor(() => sink.cut.size === chosen.size, 90_000, 'every chosen message to be cut once');
      const early = await herald.messages(campaignId);
      const sentEarly = early.filter((row) => sink.cut.has(row.recipient) && row.status === 'sent');
      expect(sentEarly.filter((row) => !sink.accepted.includes(row.recipient))).toEqual([]);

      await herald.waitSettled(campaignId, TOTAL, 150_000);
      const result = tally(addresses, sink.accepted, await herald.messages(campaignId));
      const history = await histories(campaignId);
      const usage = await herald.database.db
        .selectFrom('config_usage')
        .select(['period', 'count'])
        .where('config_id', '=', configId)
        .execute();
      printTally('SMTP cut mid-DATA', result, 0, `${sink.cut.size} DATA cut, config usage ${JSON.stringify(usage)}`);
      worker.assertAlive();
      expect(sink.cut.size).toBe(chosen.size);
      expect(result.lost).toEqual([]);
      expect(result.statuses).toEqual({ sent: TOTAL });
      // The SMTP server answered 250 exactly once per recipient: a cut DATA was retried, never duplicated.
      expect(result.duplicates).toBe(0);
      for (const recipient of chosen) {
        const statuses = history.get(recipient) ?? [];
        expect(statuses, recipient).toContain('resending');
        expect(statuses.indexOf('resending'), recipient).toBeLessThan(statuses.indexOf('sent'));
        expect(
          statuses.filter((status) => status === 'sent'),
          recipient,
        ).toHaveLength(1);
      }
      // A failed attempt gives its reserved slot back: the day and month counters hold exactly what was sent.
      expect(usage.map((row) => Number(row.count))).toEqual([TOTAL, TOTAL]);
    } finally {
      await sink.close();
    }
  });

  it.concurrent('SMPP drops the bind, then stops answering: nothing sent without a resp, the day limit exact', async () => {
    const TOTAL = 300;
    const LIMIT = 290;
    // Fewer than the failures that open the circuit breaker, so sending goes on right after the rebind.
    const WINDOW = 4;
    const smsc: SmppTestServer = await startSmppServer({ systemId: 'herald', password: 'secret' });
    try {
      const account = await herald.account();
      const configId = await herald.providerConfig(account, {
        name: 'SMSC',
        type: 'smpp',
        limitPerDay: LIMIT,
        settings: {
          host: '127.0.0.1',
          port: smsc.port,
          systemId: 'herald',
          password: 'secret',
          sender: 'Herald',
          windowSize: WINDOW,
          messagesPerSecond: 60,
        },
      });
      const addresses = Array.from({ length: TOTAL }, (_, i) => `+38050${String(1_000_000 + i)}`);
      const campaignId = await herald.startCampaign(account, { channel: 'SMS', addresses, configId });
      /** message_id → recipient of every submit_sm the SMSC answered. */
      const answered = () =>
        new Map(
          smsc.submits
            .filter((submit) => submit.messageId !== undefined)
            .map((submit) => [submit.messageId!, `+${String(submit.pdu.destination_addr)}`]),
        );
      const sentWithoutResp = async () => {
        const ids = answered();
        const sent = await herald.database.db
          .selectFrom('messages')
          .select(['recipient', 'provider_message_id'])
          .where('campaign_id', '=', campaignId)
          .where('status', '=', 'sent')
          .execute();
        return sent.filter((row) => ids.get(row.provider_message_id ?? '') !== row.recipient);
      };

      await waitFor(() => smsc.submits.length >= 40, 90_000, '40 submits before the SMSC drops the binds');
      // The submits in flight lose their resp with the connection; the channel binds again by itself.
      smsc.dropConnections();
      const droppedAt = smsc.submits.length;
      await waitFor(() => smsc.submits.length >= droppedAt + 30, 90_000, 'sending to resume after the rebind');
      smsc.stopAnswering();
      const silentFrom = smsc.submits.length;
      // Long enough for the channel to give up on the unanswered submits and drop the session.
      const silentUntil = Date.now() + 13_000;
      while (Date.now() < silentUntil) {
        expect(await sentWithoutResp()).toEqual([]);
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      smsc.resumeAnswering();

      await herald.waitSettled(
        campaignId,
        TOTAL,
        150_000,
        (row) => !['unsent', 'resending', 'processing'].includes(row.status) || row.detail === 'day limit reached',
      );
      const rows = await herald.messages(campaignId);
      const deliveries = smsc.submits
        .filter((submit) => submit.messageId !== undefined)
        .map((submit) => `+${String(submit.pdu.destination_addr)}`);
      const result = tally(addresses, deliveries, rows);
      const usage = await herald.database.db
        .selectFrom('config_usage')
        .select(['period', 'count'])
        .where('config_id', '=', configId)
        .execute();
      printTally(
        'SMPP unbound then silent',
        result,
        WINDOW,
        `binds dropped after ${droppedAt} submits, silent after ${silentFrom} for 13 s, ${smsc.binds} binds, day limit ${LIMIT}, usage ${JSON.stringify(usage)}`,
      );
      worker.assertAlive();
      expect(await sentWithoutResp()).toEqual([]);
      expect(result.lost).toEqual([]);
      expect(result.statuses).toEqual({ sent: LIMIT, unsent: TOTAL - LIMIT });
      expect(rows.filter((row) => row.status === 'unsent').every((row) => row.detail === 'day limit reached')).toBe(true);
      // The SMSC accepted exactly the sent recipients, each at least once; resends only of a dropped window.
      const sent = new Set(rows.filter((row) => row.status === 'sent').map((row) => row.recipient));
      expect(new Set(deliveries)).toEqual(sent);
      expect(result.duplicates).toBeLessThanOrEqual(WINDOW);
      expect(usage.map((row) => Number(row.count))).toEqual([LIMIT, LIMIT]);
      expect(smsc.binds).toBeGreaterThanOrEqual(2);
    } finally {
      await smsc.close();
    }
  });
});
