import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseSmsRuCallback } from '../../src/channels/http-callbacks.js';
import { smsRuChannel } from '../../src/channels/smsru.js';
import type { ChannelSettings } from '../../src/channels/types.js';
import { type FakeSmsRu, startFakeSmsRu } from '../helpers/fake-smsru.js';

let fake: FakeSmsRu;

beforeAll(async () => {
  fake = await startFakeSmsRu();
});
afterAll(() => fake.close());
afterEach(() => {
  fake.messages.length = 0;
  fake.hang = false;
});

function channel(overrides: ChannelSettings = {}) {
  return smsRuChannel.create({ apiId: fake.apiId, baseUrl: fake.baseUrl, ...overrides }, {});
}

describe('sms.ru channel', () => {
  it('declares its form fields', () => {
    expect(smsRuChannel).toMatchObject({ type: 'smsru', category: 'SMS' });
    expect(smsRuChannel.fields.map((field) => field.name)).toEqual(['apiId', 'from', 'test', 'baseUrl', 'pricePerPart']);
    expect(smsRuChannel.fields[0]).toMatchObject({ secret: true, required: true });
  });

  it('sends with the api_id in a form body and reports the sms_id', async () => {
    const results = await channel({ from: 'Herald', test: true }).send([
      { id: 1, to: '+79255070602', text: 'Код: 1234 "ok"\nспасибо' },
    ]);
    expect(results).toEqual([{ id: 1, accepted: true, providerMessageId: fake.messages[0]!.smsId }]);
    expect(fake.messages[0]).toEqual({
      smsId: expect.stringMatching(/^\d{6}-\d{8}$/),
      to: '79255070602',
      msg: 'Код: 1234 "ok"\nспасибо',
      from: 'Herald',
      test: true,
      via: 'form',
    });
  });

  it('rejects a bad number with its code and text, and a wrong api_id for every message', async () => {
    const [bad] = await channel().send([{ id: 2, to: '+7123', text: 'x' }]);
    expect(bad).toEqual({
      id: 2,
      accepted: false,
      transient: false,
      error: '202 Неправильно указан номер телефона получателя, либо на него нет маршрута',
    });
    const [unauthorized] = await channel({ apiId: 'wrong' }).send([{ id: 3, to: '+79255070602', text: 'x' }]);
    expect(unauthorized).toEqual({ id: 3, accepted: false, transient: false, error: '200 Неправильный api_id' });
  });

  it('treats "temporarily unavailable" and server errors as transient', async () => {
    fake.failNext(220, 'Сервис временно недоступен, попробуйте чуть позже.');
    fake.failNext(500, 'Ошибка на сервере. Повторите запрос.');
    const c = channel();
    const [unavailable] = await c.send([{ id: 1, to: '+79255070602', text: 'x' }]);
    const [serverError] = await c.send([{ id: 2, to: '+79255070602', text: 'x' }]);
    expect(unavailable).toMatchObject({ accepted: false, transient: true, error: expect.stringMatching(/^220 /) });
    expect(serverError).toMatchObject({ accepted: false, transient: true, error: expect.stringMatching(/^500 /) });
  });

  it('verifies with the balance and reads it', async () => {
    expect(await channel().verify()).toEqual({ ok: true, message: 'api_id accepted, balance 4122.56 RUB' });
    expect(await channel({ apiId: 'wrong' }).verify()).toEqual({
      ok: false,
      message: 'authentication failed: 200 Неправильный api_id',
    });
    expect(await channel({ apiId: '' }).verify()).toEqual({ ok: false, message: 'apiId is required' });
    expect(await channel().balance!()).toEqual({ amount: 4122.56, currency: 'RUB' });
  });

  it('gives up verify after VERIFY_TIMEOUT_MS', async () => {
    fake.hang = true;
    const started = Date.now();
    expect(await channel().verify()).toEqual({ ok: false, message: `timed out after 5000 ms (POST ${fake.baseUrl}/my/balance)` });
    expect(Date.now() - started).toBeLessThan(6500);
  });
});

describe('sms.ru callbacks', () => {
  let receiver: Server;
  let callbackUrl: string;
  const bodies: string[] = [];

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        bodies.push(Buffer.concat(chunks).toString('utf8'));
        response.end('100');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/callbacks/smsru/1`;
  });
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  it('parses delivered, undelivered and in-flight statuses with the provider’s time', async () => {
    expect(await fake.sendStatusCallback(callbackUrl, '000001-10000001', 103, 1_700_000_000)).toBe('100');
    expect(parseSmsRuCallback(bodies.pop()!)).toEqual([
      { providerMessageId: '000001-10000001', status: 'delivered', providerStatus: 'sms.ru 103', at: 1_700_000_000_000 },
    ]);
    const many = new URLSearchParams();
    many.append('data[0]', 'sms_status\n000002-1\n104\n1700000001');
    many.append('data[1]', 'sms_status\n000003-1\n102\n1700000002');
    many.append('data[2]', 'callcheck_status\n201737-542\n401\n1700000003');
    expect(parseSmsRuCallback(many.toString()).map((report) => [report.providerMessageId, report.status])).toEqual([
      ['000002-1', 'undelivered'],
      ['000003-1', 'unknown'],
    ]);
    expect(parseSmsRuCallback({ data: ['sms_status\n9\n103\n1'] })[0]!.status).toBe('delivered');
    expect(parseSmsRuCallback('')).toEqual([]);
  });
});
