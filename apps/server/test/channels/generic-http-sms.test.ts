import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { genericHttpSmsChannel } from '../../src/channels/generic-http-sms.js';
import { parseGenericCallback } from '../../src/channels/http-callbacks.js';
import type { ChannelSettings } from '../../src/channels/types.js';
import { type FakeSmsGateway, startFakeSmsGateway } from '../helpers/fake-sms-gateway.js';

let gateway: FakeSmsGateway;
let keyed: FakeSmsGateway;
let closedUrl: string;

beforeAll(async () => {
  gateway = await startFakeSmsGateway();
  keyed = await startFakeSmsGateway({
    authHeaderName: 'X-Api-Key',
    authHeaderValue: 'k-123',
    sendAnswer: (id) => ({ status: 'ok', data: { messages: [{ message_id: id }] } }),
    balanceAnswer: { account: { funds: '17.20', cur: 'RUB' } },
  });
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
});
afterAll(async () => {
  await gateway.close();
  await keyed.close();
});
afterEach(() => {
  gateway.requests.length = 0;
  keyed.requests.length = 0;
  gateway.hang = false;
});

function channel(overrides: ChannelSettings = {}) {
  return genericHttpSmsChannel.create(
    { url: `${gateway.url}/send`, authHeaderValue: 'Bearer gateway-secret', sender: 'Herald', ...overrides },
    {},
  );
}

describe('generic HTTP SMS channel', () => {
  it('declares its form fields with defaults', () => {
    expect(genericHttpSmsChannel.type).toBe('http-sms');
    expect(genericHttpSmsChannel.category).toBe('SMS');
    const byName = Object.fromEntries(genericHttpSmsChannel.fields.map((field) => [field.name, field]));
    expect(byName.url).toMatchObject({ kind: 'url', required: true });
    expect(byName.method).toMatchObject({ kind: 'select', options: ['POST', 'PUT', 'GET'], default: 'POST' });
    expect(byName.authHeaderValue).toMatchObject({ kind: 'secret', secret: true });
    expect(byName.bodyTemplate).toMatchObject({
      kind: 'json',
      default: '{"to":"{{to}}","text":"{{text}}","sender":"{{sender}}"}',
    });
    expect(byName.messageIdPath!.default).toBe('id');
    expect(byName.balancePath!.default).toBe('balance');
    expect(byName.callbackStatusPath!.default).toBe('status');
    expect(byName.callbackIdPath!.default).toBe('id');
    for (const field of genericHttpSmsChannel.fields) expect(field.label).toBe(`providers.field.${field.name}`);
  });

  it('sends the default template with the auth header and reads the id', async () => {
    const results = await channel().send([{ id: 1, to: '+380501234567', text: 'Hi' }]);
    expect(results).toEqual([{ id: 1, accepted: true, providerMessageId: expect.stringMatching(/^gw-\d+$/) }]);
    const [request] = gateway.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/send', json: { to: '+380501234567', text: 'Hi', sender: 'Herald' } });
    expect(request!.headers.authorization).toBe('Bearer gateway-secret');
    expect(request!.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('escapes quotes, newlines and backslashes, keeps Cyrillic, and lets no text break out of its string', async () => {
    const text = 'Привет, "мир"!\nLine 2\t\\ end", "to": "+19990000000", "x": "{{to}}';
    const c = genericHttpSmsChannel.create(
      {
        url: `${keyed.url}/send`,
        method: 'PUT',
        authHeaderName: 'X-Api-Key',
        authHeaderValue: 'k-123',
        clientId: 'acme',
        sender: 'Herald "HQ"',
        bodyTemplate:
          '{"messages":[{"recipient":"{{to}}","body":"{{text}}"}],"from":"{{sender}}","client":"{{clientId}}","ref":"herald-{{id}}","flash":false,"priority":1,"keep":"{{unknown}}"}',
        messageIdPath: 'data.messages.0.message_id',
      },
      {},
    );
    const [result] = await c.send([{ id: 42, to: '+79161234567', text }]);
    expect(result).toEqual({ id: 42, accepted: true, providerMessageId: 'gw-1' });
    const [request] = keyed.requests;
    expect(request!.method).toBe('PUT');
    expect(request!.headers['x-api-key']).toBe('k-123');
    expect(request!.headers.authorization).toBeUndefined();
    expect(request!.json).toEqual({
      messages: [{ recipient: '+79161234567', body: text }],
      from: 'Herald "HQ"',
      client: 'acme',
      ref: 'herald-42',
      flash: false,
      priority: 1,
      keep: '{{unknown}}',
    });
    expect(Buffer.from(request!.rawBody, 'utf8').toString()).toContain('Привет');
  });

  it('accepts the template already parsed as an object', async () => {
    const [result] = await channel({ bodyTemplate: { phone: '{{to}}', message: '{{text}}' } }).send([
      { id: 3, to: '+1', text: 'a' },
    ]);
    expect(result).toMatchObject({ accepted: true });
    expect(gateway.requests[0]!.json).toEqual({ phone: '+1', message: 'a' });
  });

  it('puts the fields in the query string for GET and fills URL placeholders URL-encoded', async () => {
    const [result] = await channel({
      method: 'GET',
      url: `${gateway.url}/send?ref={{id}}&to={{to}}`,
      bodyTemplate: '{"msg":"{{text}}","meta":{"a":1}}',
    }).send([{ id: 5, to: '+380501234567', text: 'Текст & more=1' }]);
    expect(result).toMatchObject({ accepted: true, providerMessageId: expect.stringMatching(/^gw-\d+$/) });
    expect(gateway.requests[0]).toMatchObject({
      method: 'GET',
      rawBody: '',
      query: { ref: '5', to: '+380501234567', msg: 'Текст & more=1', meta: '{"a":1}' },
    });
  });

  it('accepts a 2xx answer without an id but says so in the log', async () => {
    const warnings: object[] = [];
    const c = genericHttpSmsChannel.create(
      { url: `${gateway.url}/send`, authHeaderValue: 'Bearer gateway-secret', messageIdPath: 'result.id' },
      { log: { info: () => {}, warn: (obj) => warnings.push(obj) } },
    );
    expect(await c.send([{ id: 1, to: '+1', text: 'x' }])).toEqual([{ id: 1, accepted: true }]);
    expect(warnings).toHaveLength(1);
  });

  it('rejects 4xx permanently and treats 429, 5xx and network errors as transient', async () => {
    gateway.respondNext(400, { error: 'invalid phone' });
    gateway.respondNext(429, { error: 'slow down' });
    gateway.respondNext(503, { error: 'maintenance' });
    const c = channel();
    const [rejected] = await c.send([{ id: 1, to: 'bad', text: 'x' }]);
    const [throttled] = await c.send([{ id: 2, to: '+1', text: 'x' }]);
    const [down] = await c.send([{ id: 3, to: '+1', text: 'x' }]);
    expect(rejected).toEqual({ id: 1, accepted: false, transient: false, error: 'HTTP 400 {"error":"invalid phone"}' });
    expect(throttled).toEqual({ id: 2, accepted: false, transient: true, error: 'HTTP 429 {"error":"slow down"}' });
    expect(down).toEqual({ id: 3, accepted: false, transient: true, error: 'HTTP 503 {"error":"maintenance"}' });
    const [unreachable] = await channel({ url: `${closedUrl}/send` }).send([{ id: 4, to: '+1', text: 'x' }]);
    expect(unreachable).toEqual({
      id: 4,
      accepted: false,
      transient: true,
      error: `ECONNREFUSED ${closedUrl.slice('http://'.length)}`,
    });
    const [unauthorized] = await channel({ authHeaderValue: 'Bearer wrong' }).send([{ id: 5, to: '+1', text: 'x' }]);
    expect(unauthorized).toMatchObject({ accepted: false, transient: false, error: 'HTTP 401 {"error":"unauthorized"}' });
  });

  it('refuses to send or verify with a broken config', async () => {
    const broken = channel({ bodyTemplate: '{"to":"{{to}}",' });
    const [result] = await broken.send([{ id: 1, to: '+1', text: 'x' }]);
    expect(result).toMatchObject({ accepted: false, error: expect.stringMatching(/^bodyTemplate is not valid JSON/) });
    expect(result!.transient).toBeUndefined();
    expect((await broken.verify()).message).toMatch(/^bodyTemplate is not valid JSON/);
    expect(await channel({ url: '' }).verify()).toEqual({ ok: false, message: 'url is required' });
    expect(await channel({ method: 'DELETE' }).verify()).toEqual({ ok: false, message: 'method must be one of POST, PUT, GET' });
    expect(await channel({ authHeaderName: 'Bad Header' }).verify()).toMatchObject({ ok: false });
    expect(gateway.requests).toHaveLength(0);
  });

  it('reads the balance by path', async () => {
    expect(await channel({ balanceUrl: `${gateway.url}/balance` }).balance!()).toEqual({ amount: 42.5, currency: 'EUR' });
    const c = genericHttpSmsChannel.create(
      {
        url: `${keyed.url}/send`,
        authHeaderName: 'X-Api-Key',
        authHeaderValue: 'k-123',
        balanceUrl: `${keyed.url}/balance`,
        balancePath: 'account.funds',
        balanceCurrencyPath: 'account.cur',
      },
      {},
    );
    expect(await c.balance!()).toEqual({ amount: 17.2, currency: 'RUB' });
    expect(await channel().balance!()).toBeNull();
    await expect(channel({ balanceUrl: `${gateway.url}/balance`, balancePath: 'nope' }).balance!()).rejects.toThrow(
      'balance: no number at "nope"',
    );
  });

  it('verifies through verifyUrl, then balanceUrl, then a HEAD of the send URL', async () => {
    expect(await channel({ verifyUrl: `${gateway.url}/verify` }).verify()).toEqual({
      ok: true,
      message: `HTTP 200 from GET ${gateway.url}/verify: {"ok":true}`,
    });
    expect(await channel({ verifyUrl: `${gateway.url}/verify`, authHeaderValue: 'Bearer wrong' }).verify()).toEqual({
      ok: false,
      message: `authentication failed: HTTP 401 from GET ${gateway.url}/verify: {"error":"unauthorized"}`,
    });
    expect(await channel({ balanceUrl: `${gateway.url}/balance` }).verify()).toMatchObject({ ok: true });
    expect(gateway.requests.at(-1)).toMatchObject({ method: 'GET', path: '/balance' });
    expect(await channel().verify()).toEqual({
      ok: true,
      message: `reachable (HTTP 405 from HEAD ${gateway.url}/send); set verifyUrl or balanceUrl to check the credentials`,
    });
    expect((await channel({ authHeaderValue: 'Bearer wrong' }).verify()).message).toMatch(/^authentication failed: HTTP 401/);
    expect(await channel({ url: `${closedUrl}/send` }).verify()).toEqual({
      ok: false,
      message: `ECONNREFUSED ${closedUrl.slice('http://'.length)}`,
    });
  });

  it('gives up verify on a gateway that never answers within VERIFY_TIMEOUT_MS', async () => {
    gateway.hang = true;
    const started = Date.now();
    const result = await channel({ verifyUrl: `${gateway.url}/verify?token=secret` }).verify();
    const elapsed = Date.now() - started;
    expect(result).toEqual({ ok: false, message: `timed out after 5000 ms (GET ${gateway.url}/verify)` });
    expect(elapsed).toBeLessThan(6500);
  });
});

describe('parseGenericCallback', () => {
  it('maps statuses with the default paths', () => {
    expect(parseGenericCallback({}, { id: 'gw-1', status: 'delivered' }, 7)).toEqual({
      providerMessageId: 'gw-1',
      status: 'delivered',
      providerStatus: 'delivered',
      at: 7,
    });
    expect(parseGenericCallback({}, { id: 12, status: 'FAILED' })).toMatchObject({
      providerMessageId: '12',
      status: 'undelivered',
    });
    expect(parseGenericCallback({}, { id: 'a', status: 'undelivered' })!.status).toBe('undelivered');
    expect(parseGenericCallback({}, { id: 'a', status: 'enroute' })).toMatchObject({
      status: 'unknown',
      providerStatus: 'enroute',
    });
    expect(parseGenericCallback({}, { id: 'a' })).toMatchObject({ status: 'unknown', providerStatus: 'no status' });
    expect(parseGenericCallback({}, { status: 'delivered' })).toBeNull();
    expect(parseGenericCallback({}, 'not an object')).toBeNull();
  });

  it('follows the configured paths', () => {
    const settings = { callbackIdPath: 'data.sms.ref', callbackStatusPath: 'data.sms.state' };
    expect(parseGenericCallback(settings, { data: { sms: { ref: 'x9', state: 'DELIVRD' } } })).toMatchObject({
      providerMessageId: 'x9',
      status: 'delivered',
      providerStatus: 'DELIVRD',
    });
    expect(parseGenericCallback(settings, { id: 'x9', status: 'delivered' })).toBeNull();
  });
});
