import { afterEach, describe, expect, it } from 'vitest';
import { createSmppChannel, parseDeliveryReceipt, relativeValidity, smppChannel } from '../../src/channels/smpp.js';
import type { Channel, ChannelSettings, DeliveryReport, OutgoingSms } from '../../src/channels/types.js';
import { type SmppServerOptions, type SmppTestServer, startSmppServer } from '../helpers/smpp-server.js';

/** Short timers so the failure cases finish in about a second. */
const FAST = { responseTimeoutMs: 500, bindWaitMs: 2000 };
const CYRILLIC_300 = 'Привет, это Herald. '.repeat(15);

let server: SmppTestServer | undefined;
const channels: Channel[] = [];

afterEach(async () => {
  await Promise.all(channels.splice(0).map((channel) => channel.close()));
  await server?.close();
  server = undefined;
});

async function smsc(options?: SmppServerOptions): Promise<SmppTestServer> {
  server = await startSmppServer(options);
  return server;
}

function settingsFor(smscServer: SmppTestServer, overrides: ChannelSettings = {}): ChannelSettings {
  return { host: '127.0.0.1', port: smscServer.port, systemId: 'herald', password: 'secret', sender: 'Herald', ...overrides };
}

function open(smscServer: SmppTestServer, overrides: ChannelSettings = {}, reports: DeliveryReport[] = []): Channel {
  const channel = createSmppChannel(
    settingsFor(smscServer, overrides),
    { onDeliveryReport: (report) => reports.push(report) },
    FAST,
  );
  channels.push(channel);
  return channel;
}

function sms(id: number, text = 'Hello from Herald', to = '+380501234567'): OutgoingSms {
  return { id, to, text };
}

describe('verify', () => {
  it('binds and unbinds with the right password', async () => {
    const smscServer = await smsc();
    const channel = smppChannel.create(settingsFor(smscServer), {});
    channels.push(channel);
    await expect(channel.verify()).resolves.toEqual({ ok: true, message: `bound to 127.0.0.1:${smscServer.port} as herald` });
  });

  it('names the refusal for a wrong password', async () => {
    const smscServer = await smsc();
    const channel = smppChannel.create(settingsFor(smscServer, { password: 'wrong' }), {});
    channels.push(channel);
    await expect(channel.verify()).resolves.toEqual({ ok: false, message: 'bind refused: ESME_RINVPASWD (0x0E)' });
  });

  it('names a refused connection', async () => {
    const smscServer = await smsc();
    const settings = settingsFor(smscServer);
    await smscServer.close();
    server = undefined;
    const channel = smppChannel.create(settings, {});
    channels.push(channel);
    const result = await channel.verify();
    expect(result.ok).toBe(false);
    expect(result.message).toBe(`connect ECONNREFUSED 127.0.0.1:${settings.port}`);
  });
});

describe('submit_sm', () => {
  it('sets source TON/NPI per sender type, E.164 destination and registered delivery', async () => {
    const smscServer = await smsc();
    await open(smscServer).send([sms(1)]);
    await open(smscServer, { senderType: 'shortcode', sender: '7255' }).send([sms(2)]);
    await open(smscServer, { senderType: 'longnumber', sender: '+15551234567', registeredDelivery: false }).send([sms(3)]);
    const [alpha, short, long] = smscServer.submits.map((submit) => submit.pdu);
    expect(alpha).toMatchObject({
      source_addr_ton: 5,
      source_addr_npi: 0,
      source_addr: 'Herald',
      dest_addr_ton: 1,
      dest_addr_npi: 1,
      destination_addr: '380501234567',
      registered_delivery: 1,
      data_coding: 0x00,
      esm_class: 0,
      short_message: { message: 'Hello from Herald' },
    });
    expect(short).toMatchObject({ source_addr_ton: 3, source_addr_npi: 0, source_addr: '7255' });
    expect(long).toMatchObject({ source_addr_ton: 1, source_addr_npi: 1, source_addr: '15551234567', registered_delivery: 0 });
  });

  it('sends the lifetime as a relative validity period', async () => {
    expect(relativeValidity(90)).toBe('000000013000000R');
    expect(relativeValidity(1530)).toBe('000001013000000R');
    const smscServer = await smsc();
    const before = Date.now();
    await open(smscServer, { lifetimeMinutes: 1530 }).send([sms(1)]);
    // The smpp package decodes a relative time into the moment it designates.
    const validUntil = smscServer.submits[0]!.pdu.validity_period as Date;
    expect(validUntil.getTime() - before).toBeGreaterThanOrEqual(1530 * 60_000 - 1000);
    expect(validUntil.getTime() - before).toBeLessThan(1530 * 60_000 + 5000);
  });

  it('uses class-0 data coding for flash and keeps GSM extension characters', async () => {
    const smscServer = await smsc();
    const flash = open(smscServer, { flash: true });
    await flash.send([sms(1, 'Price: 5 € [flash]')]);
    await flash.send([sms(2, 'Срочно')]);
    await open(smscServer).send([sms(3, 'Срочно')]);
    const [gsm, ucs2, plain] = smscServer.submits.map((submit) => submit.pdu);
    expect(gsm).toMatchObject({ data_coding: 0x10, short_message: { message: 'Price: 5 € [flash]' } });
    expect(ucs2).toMatchObject({ data_coding: 0x18, short_message: { message: 'Срочно' } });
    expect(plain).toMatchObject({ data_coding: 0x08, short_message: { message: 'Срочно' } });
  });

  it('sends 300 Cyrillic characters as 5 concatenated UCS-2 parts', async () => {
    const smscServer = await smsc();
    const [result] = await open(smscServer).send([sms(1, CYRILLIC_300)]);
    expect(CYRILLIC_300).toHaveLength(300);
    expect(smscServer.submits).toHaveLength(5);
    const first = smscServer.submits[0]!;
    expect(result).toEqual({ id: 1, accepted: true, providerMessageId: first.messageId, parts: 5 });
    const ref = (first.pdu.short_message as { udh: Buffer[] }).udh[0]![2];
    const texts = smscServer.submits.map(({ pdu }, index) => {
      const message = pdu.short_message as { udh: Buffer[]; message: string };
      expect(pdu).toMatchObject({ data_coding: 0x08, esm_class: 0x40 });
      expect([...message.udh[0]!]).toEqual([0x00, 0x03, ref, 5, index + 1]);
      return message.message;
    });
    expect(texts.map((text) => text.length)).toEqual([67, 67, 67, 67, 32]);
    expect(texts.join('')).toBe(CYRILLIC_300);
  });

  it("reports refusals, with throttling, a full queue and a system error as transient and a bad number as the recipient's fault", async () => {
    const statuses: Record<string, number> = {
      '380500000058': 0x58,
      '380500000014': 0x14,
      '380500000011': 0x0b,
      '380500000008': 0x08,
    };
    const smscServer = await smsc({ submitStatus: (pdu) => statuses[String(pdu.destination_addr)] ?? 0 });
    const results = await open(smscServer).send([
      sms(1, 'a', '+380500000058'),
      sms(2, 'b', '+380500000014'),
      sms(3, 'c', '+380500000011'),
      sms(4, 'd'),
      sms(5, 'e', '+380500000008'),
    ]);
    expect(results).toEqual([
      {
        id: 1,
        accepted: false,
        parts: 0,
        error: 'submit_sm_resp ESME_RTHROTTLED (0x58)',
        transient: true,
        recipientFault: false,
      },
      { id: 2, accepted: false, parts: 0, error: 'submit_sm_resp ESME_RMSGQFUL (0x14)', transient: true, recipientFault: false },
      {
        id: 3,
        accepted: false,
        parts: 0,
        error: 'submit_sm_resp ESME_RINVDSTADR (0x0B)',
        transient: false,
        recipientFault: true,
      },
      { id: 4, accepted: true, providerMessageId: expect.any(String), parts: 1 },
      { id: 5, accepted: false, parts: 0, error: 'submit_sm_resp ESME_RSYSERR (0x08)', transient: true, recipientFault: false },
    ]);
  });

  it('sends again only the parts of a long text the SMSC did not take, under the same concatenation reference', async () => {
    let throttled = false;
    const smscServer = await smsc({
      submitStatus: (pdu) => {
        const sequence = (pdu.short_message as { udh?: Buffer[] }).udh?.[0]?.[4];
        if (sequence !== 2 || throttled) return 0;
        throttled = true;
        return 0x58;
      },
    });
    const channel = open(smscServer);
    const [first] = await channel.send([sms(1, CYRILLIC_300)]);
    const [taken1, , taken3, taken4, taken5] = smscServer.submits.map((submit) => submit.messageId ?? null);
    const reference = (smscServer.submits[0]!.pdu.short_message as { udh: Buffer[] }).udh[0]![2]!;
    expect(first).toEqual({
      id: 1,
      accepted: false,
      parts: 4,
      error: 'submit_sm_resp ESME_RTHROTTLED (0x58)',
      transient: true,
      recipientFault: false,
      partsSent: { reference, ids: [taken1, null, taken3, taken4, taken5] },
    });
    // Another message in between takes the next reference; the retry keeps its own.
    await channel.send([sms(2, CYRILLIC_300)]);
    smscServer.submits.length = 0;
    const [retry] = await channel.send([{ ...sms(1, CYRILLIC_300), partsSent: first!.partsSent! }]);
    expect(smscServer.submits).toHaveLength(1);
    expect([...(smscServer.submits[0]!.pdu.short_message as { udh: Buffer[] }).udh[0]!]).toEqual([0x00, 0x03, reference, 5, 2]);
    expect(retry).toEqual({ id: 1, accepted: true, providerMessageId: taken1, parts: 5 });
  });

  it('keeps at most windowSize submit_sm in flight across concurrent sends and delivers 1,000 messages exactly once', async () => {
    const smscServer = await smsc({ responseDelayMs: 20 });
    const messages = Array.from({ length: 1000 }, (_, i) =>
      sms(i + 1, `Message ${i + 1}`, `+38050${String(i).padStart(7, '0')}`),
    );
    const channel = open(smscServer, { windowSize: 50 });
    const results = (await Promise.all([channel.send(messages.slice(0, 500)), channel.send(messages.slice(500))])).flat();
    expect(results.every((result) => result.accepted)).toBe(true);
    expect(new Set(results.map((result) => result.providerMessageId)).size).toBe(1000);
    expect(smscServer.submits).toHaveLength(1000);
    expect(new Set(smscServer.submits.map(({ pdu }) => pdu.destination_addr)).size).toBe(1000);
    // Answers held for 20 ms let the client fill its window; a part of it may be on the wire at any moment.
    expect(smscServer.maxOutstanding).toBeLessThanOrEqual(50);
    expect(smscServer.maxOutstanding).toBeGreaterThanOrEqual(40);
  });

  it('paces submit_sm to messagesPerSecond', async () => {
    const smscServer = await smsc();
    const started = Date.now();
    await open(smscServer, { messagesPerSecond: 50 }).send(Array.from({ length: 20 }, (_, i) => sms(i + 1)));
    // A burst of a tenth of a second (5), then one every 20 ms.
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
  });
});

describe('delivery receipts', () => {
  it('reports the text receipt of a message with its providerMessageId', async () => {
    const smscServer = await smsc();
    const reports: DeliveryReport[] = [];
    const [result] = await open(smscServer, {}, reports).send([sms(1)]);
    const response = await smscServer.sendReceipt({ messageId: result!.providerMessageId! });
    expect(response).toMatchObject({ command: 'deliver_sm_resp', command_status: 0 });
    expect(reports).toEqual([
      {
        providerMessageId: result!.providerMessageId,
        status: 'delivered',
        providerStatus: 'stat:DELIVRD err:000',
        at: expect.any(Number),
      },
    ]);
  });

  it('maps a later part of a concatenated message to the first part id, using TLVs', async () => {
    const smscServer = await smsc();
    const reports: DeliveryReport[] = [];
    const [result] = await open(smscServer, {}, reports).send([sms(1, CYRILLIC_300)]);
    await smscServer.sendReceipt({ messageId: smscServer.submits[2]!.messageId!, stat: 'UNDELIV', err: '001', tlvs: true });
    expect(reports).toEqual([
      {
        providerMessageId: result!.providerMessageId,
        status: 'undelivered',
        providerStatus: 'stat:UNDELIV err:001',
        at: expect.any(Number),
      },
    ]);
  });

  it('reports a concatenated message delivered once every part is, and undelivered at its first failed part', async () => {
    const smscServer = await smsc();
    const reports: DeliveryReport[] = [];
    const channel = open(smscServer, {}, reports);
    const [whole] = await channel.send([sms(1, CYRILLIC_300)]);
    const parts = smscServer.submits.slice(-5).map((submit) => submit.messageId!);
    for (const part of parts.slice(0, 4)) await smscServer.sendReceipt({ messageId: part });
    // Four parts of five arrived: the message is not delivered yet.
    expect(reports).toEqual([]);
    await smscServer.sendReceipt({ messageId: parts[4]! });
    expect(reports).toEqual([expect.objectContaining({ providerMessageId: whole!.providerMessageId, status: 'delivered' })]);

    reports.length = 0;
    const [broken] = await channel.send([sms(2, CYRILLIC_300)]);
    const brokenParts = smscServer.submits.slice(-5).map((submit) => submit.messageId!);
    await smscServer.sendReceipt({ messageId: brokenParts[0]! });
    await smscServer.sendReceipt({ messageId: brokenParts[1]!, stat: 'UNDELIV', err: '001' });
    for (const part of brokenParts.slice(2)) await smscServer.sendReceipt({ messageId: part });
    // The failed part settles it; the later delivered parts do not turn it delivered.
    expect(reports).toEqual([expect.objectContaining({ providerMessageId: broken!.providerMessageId, status: 'undelivered' })]);
  });

  it('parses receipt texts and TLVs', () => {
    const text = 'id:0a1b sub:001 dlvrd:001 submit date:2611051200 done date:2611051201 stat:DELIVRD err:000 text:stat:UNDELIV';
    expect(parseDeliveryReceipt(text, {}, 7)).toEqual({
      providerMessageId: '0a1b',
      status: 'delivered',
      providerStatus: 'stat:DELIVRD err:000',
      at: 7,
    });
    for (const stat of ['UNDELIV', 'EXPIRED', 'REJECTD', 'DELETED']) {
      expect(parseDeliveryReceipt(`id:1 stat:${stat} err:001`)?.status).toBe('undelivered');
    }
    expect(parseDeliveryReceipt('id:1 stat:ACCEPTD err:000')?.status).toBe('unknown');
    expect(parseDeliveryReceipt('id:1 stat:ENROUTE', { receiptedMessageId: 'X9', messageState: 2 })).toMatchObject({
      providerMessageId: 'X9',
      status: 'delivered',
      providerStatus: 'stat:DELIVRD',
    });
    expect(parseDeliveryReceipt('Hi, see you at 5')).toBeNull();
  });
});

describe('connection', () => {
  it('fails in-flight messages as transient when the SMSC stops answering', async () => {
    const smscServer = await smsc();
    const channel = open(smscServer);
    await channel.send([sms(1)]);
    smscServer.stopAnswering();
    const started = Date.now();
    const results = await channel.send(Array.from({ length: 200 }, (_, i) => sms(i + 2)));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(results.every((result) => !result.accepted && result.transient)).toBe(true);
    expect(results[0]!.error).toBe('connection lost: no submit_sm_resp within 0.5 s');
  });

  it('fails in-flight messages as transient when the connection drops, then rebinds', async () => {
    const smscServer = await smsc({ responseDelayMs: 200 });
    const channel = open(smscServer);
    const sending = channel.send([sms(1), sms(2)]);
    await smscServer.waitFor(() => smscServer.submitCount === 2);
    smscServer.dropConnections();
    const results = await sending;
    expect(results.map((result) => [result.accepted, result.transient])).toEqual([
      [false, true],
      [false, true],
    ]);
    expect(results[0]!.error).toMatch(/^connection lost: /);
    await smscServer.waitFor(() => smscServer.binds === 2, 3000);
    await expect(channel.send([sms(3)])).resolves.toMatchObject([{ id: 3, accepted: true }]);
  });

  it('sends enquire_link while idle', async () => {
    const smscServer = await smsc();
    const channel = createSmppChannel(settingsFor(smscServer), {}, { ...FAST, enquireLinkMs: 100 });
    channels.push(channel);
    await smscServer.waitFor(() => smscServer.enquireLinks >= 2, 2000);
  });

  it('fails a batch as transient when it cannot bind', async () => {
    const smscServer = await smsc();
    const results = await open(smscServer, { password: 'wrong' }).send([sms(1)]);
    expect(results).toEqual([
      {
        id: 1,
        accepted: false,
        transient: true,
        error: `not bound to 127.0.0.1:${smscServer.port}: bind refused: ESME_RINVPASWD (0x0E)`,
      },
    ]);
  });
});
