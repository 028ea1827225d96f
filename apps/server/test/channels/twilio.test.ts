import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseTwilioStatusCallback, twilioSignature, verifyTwilioSignature } from '../../src/channels/http-callbacks.js';
import { twilioChannel } from '../../src/channels/twilio.js';
import type { ChannelSettings, OutgoingSms } from '../../src/channels/types.js';
import { type FakeTwilio, startFakeTwilio } from '../helpers/fake-twilio.js';

let fake: FakeTwilio;

beforeAll(async () => {
  fake = await startFakeTwilio({ apiKeys: { SK0123456789abcdef0123456789abcdef: 'key-secret' } });
});
afterAll(() => fake.close());
afterEach(() => {
  fake.messages.length = 0;
  fake.delayMs = 0;
  fake.hang = false;
  fake.maxInFlight = 0;
});

function channel(overrides: ChannelSettings = {}) {
  return twilioChannel.create(
    { accountSid: fake.accountSid, authToken: fake.authToken, from: '+15005550006', baseUrl: fake.baseUrl, ...overrides },
    {},
  );
}

const sms = (id: number, to: string, text = 'Hello from Herald'): OutgoingSms => ({ id, to, text });

describe('twilio channel', () => {
  it('declares its form fields', () => {
    expect(twilioChannel.type).toBe('twilio');
    expect(twilioChannel.category).toBe('SMS');
    const names = twilioChannel.fields.map((field) => field.name);
    expect(names).toEqual([
      'accountSid',
      'authToken',
      'apiKey',
      'apiSecret',
      'from',
      'messagingServiceSid',
      'statusCallbackUrl',
      'baseUrl',
      'pricePerPart',
    ]);
    expect(twilioChannel.fields.filter((field) => field.secret).map((field) => field.name)).toEqual(['authToken', 'apiSecret']);
    for (const field of twilioChannel.fields) expect(field.label).toBe(`providers.field.${field.name}`);
  });

  it('sends and reports the sid and the billed segments', async () => {
    const results = await channel({ statusCallbackUrl: 'https://herald.test/callbacks/twilio' }).send([
      sms(1, '+14155550100'),
      sms(2, '+14155550101', 'x'.repeat(200)),
    ]);
    expect(results).toEqual([
      { id: 1, accepted: true, providerMessageId: fake.messages.find((m) => m.to === '+14155550100')!.sid, parts: 1 },
      { id: 2, accepted: true, providerMessageId: fake.messages.find((m) => m.to === '+14155550101')!.sid, parts: 2 },
    ]);
    expect(results[0]!.providerMessageId).toMatch(/^SM[0-9a-f]{32}$/);
    const first = fake.messages.find((m) => m.to === '+14155550100')!;
    expect(first).toMatchObject({
      from: '+15005550006',
      messagingServiceSid: null,
      body: 'Hello from Herald',
      statusCallback: 'https://herald.test/callbacks/twilio',
      authUser: fake.accountSid,
    });
  });

  it('authenticates with an API key and secret and sends through a Messaging Service', async () => {
    const [result] = await channel({
      apiKey: 'SK0123456789abcdef0123456789abcdef',
      apiSecret: 'key-secret',
      from: '',
      messagingServiceSid: 'MG0123',
    }).send([sms(7, '+447700900123', 'Привет, мир')]);
    expect(result).toMatchObject({ id: 7, accepted: true, parts: 1 });
    expect(fake.messages[0]).toMatchObject({
      authUser: 'SK0123456789abcdef0123456789abcdef',
      messagingServiceSid: 'MG0123',
      from: null,
      body: 'Привет, мир',
      statusCallback: null,
    });
  });

  it('rejects an invalid number with Twilio’s code, permanently, without failing the rest of the batch', async () => {
    const results = await channel().send([sms(1, '12345'), sms(2, '+14155550100')]);
    expect(results[0]).toEqual({ id: 1, accepted: false, transient: false, error: "21211 Invalid 'To' Phone Number" });
    expect(results[1]).toMatchObject({ id: 2, accepted: true });
  });

  it('treats 429 and 500 as transient', async () => {
    fake.failNext(429);
    fake.failNext(500);
    const c = channel();
    const [throttled] = await c.send([sms(1, '+14155550100')]);
    const [failed] = await c.send([sms(2, '+14155550100')]);
    const [ok] = await c.send([sms(3, '+14155550100')]);
    expect(throttled).toEqual({ id: 1, accepted: false, transient: true, error: '20429 Too Many Requests' });
    expect(failed).toEqual({ id: 2, accepted: false, transient: true, error: '20500 Internal Server Error' });
    expect(ok).toMatchObject({ id: 3, accepted: true });
  });

  it('treats an unreachable API as transient with the precise cause', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const [result] = await channel({ baseUrl: `http://127.0.0.1:${port}` }).send([sms(1, '+14155550100')]);
    expect(result).toEqual({ id: 1, accepted: false, transient: true, error: `ECONNREFUSED 127.0.0.1:${port}` });
  });

  it('keeps at most 10 requests in flight and results in input order', async () => {
    fake.delayMs = 30;
    const batch = Array.from({ length: 25 }, (_, i) => sms(i + 1, `+1415555${String(i).padStart(4, '0')}`));
    const results = await channel().send(batch);
    expect(results.map((result) => result.id)).toEqual(batch.map((message) => message.id));
    expect(results.every((result) => result.accepted)).toBe(true);
    expect(fake.maxInFlight).toBe(10);
  });

  it('refuses an email routed to it', async () => {
    const [result] = await channel().send([{ id: 9, to: 'a@b.c', subject: 'Hi', text: 'Hi' }]);
    expect(result).toEqual({ id: 9, accepted: false, error: 'an SMS channel cannot send email' });
    expect(fake.messages).toHaveLength(0);
  });

  it('verifies good credentials', async () => {
    expect(await channel().verify()).toEqual({ ok: true, message: 'account "Herald test account" is active (Full)' });
  });

  it('fails verify with a clear message on a wrong token, and sends fail permanently', async () => {
    const c = channel({ authToken: 'wrong' });
    expect(await c.verify()).toEqual({
      ok: false,
      message: 'authentication failed: 20003 Authenticate (Your AccountSid or AuthToken was incorrect.)',
    });
    const [result] = await c.send([sms(1, '+14155550100')]);
    expect(result).toMatchObject({ accepted: false, transient: false, error: expect.stringMatching(/^20003 Authenticate/) });
  });

  it('fails verify on an incomplete config without a request', async () => {
    expect(await channel({ from: '' }).verify()).toEqual({ ok: false, message: 'from or messagingServiceSid is required' });
    expect(await channel({ apiKey: 'SK1' }).verify()).toEqual({ ok: false, message: 'apiKey and apiSecret go together' });
  });

  it('gives up verify after VERIFY_TIMEOUT_MS with the cause', async () => {
    fake.hang = true;
    const started = Date.now();
    const result = await channel().verify();
    const elapsed = Date.now() - started;
    expect(result.ok).toBe(false);
    expect(result.message).toBe(`timed out after 5000 ms (GET ${fake.baseUrl}/2010-04-01/Accounts/${fake.accountSid}.json)`);
    expect(elapsed).toBeGreaterThanOrEqual(4900);
    expect(elapsed).toBeLessThan(6500);
  });

  it('reads the balance', async () => {
    expect(await channel().balance!()).toEqual({ amount: 12.34, currency: 'USD' });
    await expect(channel({ authToken: 'wrong' }).balance!()).rejects.toThrow(/^balance: 20003 Authenticate/);
  });
});

describe('twilio status callbacks', () => {
  let receiver: Server;
  let callbackUrl: string;
  const received: Array<{ body: string; signature: string | undefined }> = [];

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({
          body: Buffer.concat(chunks).toString('utf8'),
          signature: request.headers['x-twilio-signature'] as string,
        });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/callbacks/twilio/3?x=1`;
  });
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  it('parses a delivered callback and accepts its signature', async () => {
    const [sent] = await channel({ statusCallbackUrl: callbackUrl }).send([sms(1, '+14155550100')]);
    expect(await fake.sendStatusCallback(sent!.providerMessageId!, 'delivered')).toEqual({ status: 204 });
    const { body, signature } = received.pop()!;
    expect(verifyTwilioSignature(fake.authToken, callbackUrl, body, signature)).toBe(true);
    expect(verifyTwilioSignature(fake.authToken, callbackUrl, Object.fromEntries(new URLSearchParams(body)), signature)).toBe(
      true,
    );
    const report = parseTwilioStatusCallback(body);
    expect(report).toMatchObject({
      providerMessageId: sent!.providerMessageId,
      status: 'delivered',
      providerStatus: 'delivered',
    });
    expect(report!.at).toBeGreaterThan(Date.now() - 60_000);
  });

  it('maps undelivered with its error code, and refuses a tampered or mis-keyed signature', async () => {
    const [sent] = await channel({ statusCallbackUrl: callbackUrl }).send([sms(1, '+14155550100')]);
    await fake.sendStatusCallback(sent!.providerMessageId!, 'undelivered', { errorCode: '30003' });
    const genuine = received.pop()!;
    expect(parseTwilioStatusCallback(genuine.body)).toMatchObject({ status: 'undelivered', providerStatus: 'undelivered 30003' });
    expect(verifyTwilioSignature(fake.authToken, callbackUrl, genuine.body, genuine.signature)).toBe(true);
    expect(verifyTwilioSignature('other-token', callbackUrl, genuine.body, genuine.signature)).toBe(false);
    expect(verifyTwilioSignature(fake.authToken, `${callbackUrl}&y=2`, genuine.body, genuine.signature)).toBe(false);
    expect(verifyTwilioSignature(fake.authToken, callbackUrl, genuine.body, undefined)).toBe(false);
    expect(verifyTwilioSignature(fake.authToken, callbackUrl, genuine.body, 'short')).toBe(false);

    await fake.sendStatusCallback(sent!.providerMessageId!, 'undelivered', { errorCode: '30003', tamper: true });
    const tampered = received.pop()!;
    expect(parseTwilioStatusCallback(tampered.body)!.status).toBe('delivered');
    expect(verifyTwilioSignature(fake.authToken, callbackUrl, tampered.body, tampered.signature)).toBe(false);
  });

  it('maps interim and failed statuses', () => {
    const parse = (fields: Record<string, string>) => parseTwilioStatusCallback(new URLSearchParams(fields).toString(), 1);
    for (const interim of ['queued', 'sent', 'accepted', 'sending']) {
      expect(parse({ MessageSid: 'SM1', MessageStatus: interim })).toEqual({
        providerMessageId: 'SM1',
        status: 'unknown',
        providerStatus: interim,
        at: 1,
      });
    }
    expect(parse({ MessageSid: 'SM1', MessageStatus: 'failed', ErrorCode: '30008' })!.status).toBe('undelivered');
    expect(parseTwilioStatusCallback({ SmsSid: 'SM2', SmsStatus: 'delivered' })!.status).toBe('delivered');
    expect(parse({ MessageStatus: 'delivered' })).toBeNull();
  });

  it('matches Twilio’s documented signature example', () => {
    const params = {
      CallSid: 'CA1234567890ABCDE',
      Caller: '+12349013030',
      Digits: '1234',
      From: '+12349013030',
      To: '+18005551212',
    };
    const url = 'https://mycompany.com/myapp.php?foo=1&bar=2';
    expect(twilioSignature('12345', url, params)).toBe('0/KCTR6DLpKmkAf8muzZqo1nDgQ=');
    expect(verifyTwilioSignature('12345', url, params, '0/KCTR6DLpKmkAf8muzZqo1nDgQ=')).toBe(true);
  });
});
