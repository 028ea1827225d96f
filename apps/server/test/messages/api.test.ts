import { errorText } from '@herald/shared/error-messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CampaignContent } from '../../src/campaigns/content.js';
import { Dispatcher } from '../../src/engine/dispatcher.js';
import { ApiTemplateContent } from '../../src/messages/content.js';
import { WebhookDelivery } from '../../src/webhooks/delivery.js';
import { accountIdOf } from '../engine/helpers.js';
import { createTestApp, signUp, type TestApp } from '../helpers/app.js';
import { decodedText } from '../helpers/mime.js';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

let t: TestApp;
let sink: SmtpSink;
let receiver: WebhookReceiver;

beforeAll(async () => {
  t = await createTestApp();
  sink = await startSmtpSink();
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await t.close();
  await sink.close();
  await receiver.close();
});

interface ApiAccount {
  accountId: number;
  session: { 'x-token': string };
  send: { authorization: string };
  read: { 'x-api-key': string };
}

async function createKey(session: { 'x-token': string }, scope: 'send' | 'read', rateLimit?: number): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/data/api-keys',
    headers: session,
    payload: { name: `${scope} key`, scope, ...(rateLimit ? { rateLimit } : {}) },
  });
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json().key;
}

async function apiAccount(): Promise<ApiAccount> {
  const user = await signUp(t.app, { role: 'api' });
  const session = { 'x-token': user.token };
  return {
    accountId: await accountIdOf(t, user.email),
    session,
    send: { authorization: `Bearer ${await createKey(session, 'send')}` },
    read: { 'x-api-key': await createKey(session, 'read') },
  };
}

const inline = (to: string) => ({ channel: 'email', to, content: { subject: 'Your code', text: 'Code 1234' } });

function post(headers: Record<string, string>, payload: unknown, url = '/api/v1/messages') {
  return t.app.inject({ method: 'POST', url, headers, payload: payload as Record<string, unknown> });
}

async function messageCount(accountId: number): Promise<number> {
  const row = await t.database.db
    .selectFrom('messages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function template(account: ApiAccount, body: Record<string, unknown>): Promise<void> {
  const res = await t.app.inject({ method: 'POST', url: '/api/data/templates', headers: account.session, payload: body });
  if (res.statusCode !== 200) throw new Error(res.body);
}

describe('authentication and scope', () => {
  it('answers 401 JSON without a valid key and 403 when a read key sends', async () => {
    const account = await apiAccount();
    for (const headers of [{}, { authorization: 'Bearer hk_nope' }, { 'x-api-key': '' }, { authorization: 'Basic abc' }]) {
      const res = await post(headers, inline('a@example.com'));
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ statusCode: 401, key: 'apiKey.invalid', fields: [] });
    }
    const scoped = await post(account.read, inline('a@example.com'));
    expect(scoped.statusCode).toBe(403);
    expect(scoped.json().key).toBe('apiKey.scope');
    // A session token is not an API key.
    expect((await post(account.session, inline('a@example.com'))).statusCode).toBe(401);
    expect(await messageCount(account.accountId)).toBe(0);
  });

  it('answers in the caller language', async () => {
    const res = await post({ 'accept-language': 'ru' }, inline('a@example.com'));
    expect(res.json().message).toBe('API-ключ не указан, не найден или отозван.');
  });

  it("answers in the account's saved language when the call asks for none Herald speaks", async () => {
    const account = await apiAccount();
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/data/users/change-language',
      headers: account.session,
      payload: { language: 'uk' },
    });
    expect(saved.statusCode).toBe(200);
    const bad = await post(account.send, { channel: 'email', to: 'a@example.com', template: 'no-such-template' });
    expect(bad.json().fields[0].message).toBe(errorText('messages.unknownTemplate', 'uk', { name: 'no-such-template' }));
    const asked = await post(
      { ...account.send, 'accept-language': 'en' },
      { channel: 'email', to: 'a@example.com', template: 'x' },
    );
    expect(asked.json().fields[0].message).toBe('There is no template named x.');
    // A header naming only languages Herald does not speak leaves the saved one in charge, for the API and the console.
    const german = await post(
      { ...account.send, 'accept-language': 'de-DE,de;q=0.9' },
      { channel: 'email', to: 'a@example.com', template: 'x' },
    );
    expect(german.json().fields[0].message).toBe(errorText('messages.unknownTemplate', 'uk', { name: 'x' }));
    const session = await t.app.inject({
      method: 'GET',
      url: '/api/data/campaigns/999999',
      headers: { ...account.session, 'accept-language': 'fr' },
    });
    // An API-mailing account has no campaigns screen: refused, in its language.
    expect(session.json().message).toBe(errorText('error.forbidden', 'uk'));
  });
});

describe('POST /api/v1/messages', () => {
  it('persists the message on the priority lane and answers 202 with its id', async () => {
    const account = await apiAccount();
    // Stored as contacts are, in lower case: the message log finds it however the address is typed.
    const res = await post(account.send, { ...inline('  Buyer@Example.com '), locale: 'en-GB' });
    expect(res.statusCode).toBe(202);
    const body = res.json();
    expect(body).toMatchObject({ status: 'unsent', channel: 'email', to: 'buyer@example.com' });
    expect(Number.isInteger(body.id)).toBe(true);
    expect(new Date(body.createdAt).toISOString()).toBe(body.createdAt);
    const row = await t.database.db.selectFrom('messages').selectAll().where('id', '=', body.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ lane: 0, channel: 'EMAIL', status: 'unsent', campaign_id: null, locale: 'en-GB' });
    expect(JSON.parse(row.payload!)).toEqual({ subject: 'Your code', text: 'Code 1234' });

    const read = await t.app.inject({ method: 'GET', url: `/api/v1/messages/${body.id}`, headers: account.read });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({
      id: body.id,
      channel: 'email',
      to: 'buyer@example.com',
      status: 'unsent',
      template: null,
      configId: null,
      providerMessageId: null,
      attempts: 0,
      locale: 'en-GB',
      history: [{ status: 'unsent', detail: null, configId: null }],
    });
  });

  it('answers each of many concurrent requests with its own persisted message', async () => {
    const account = await apiAccount();
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => post(account.send, inline(`c${i}@example.com`))));
    const bodies = answers.map((a) => a.json());
    expect(new Set(bodies.map((b) => b.id)).size).toBe(30);
    const rows = await t.database.db
      .selectFrom('messages')
      .select(['id', 'recipient', 'created_at'])
      .where('account_id', '=', account.accountId)
      .execute();
    const byId = new Map(rows.map((row) => [Number(row.id), row]));
    bodies.forEach((body, i) => {
      expect(byId.get(body.id)?.recipient).toBe(`c${i}@example.com`);
      expect(Number(byId.get(body.id)?.created_at)).toBe(Date.parse(body.createdAt));
    });
  });

  it('keeps other accounts out: their ids are 404', async () => {
    const owner = await apiAccount();
    const stranger = await apiAccount();
    const { id } = (await post(owner.send, inline('x@example.com'))).json();
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/messages/${id}`, headers: stranger.send });
    expect(res.statusCode).toBe(404);
    const missing = await t.app.inject({ method: 'GET', url: '/api/v1/messages/999999999', headers: owner.send });
    expect(missing.statusCode).toBe(404);
  });

  it('refuses bad input naming the field, and stores nothing', async () => {
    const account = await apiAccount();
    const unknown = await post(account.send, { channel: 'email', to: 'a@example.com', template: 'no-such-template' });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().fields).toEqual([
      { field: 'template', key: 'messages.unknownTemplate', message: 'There is no template named no-such-template.' },
    ]);
    const email = await post(account.send, inline('not-an-address'));
    expect(email.statusCode).toBe(422);
    expect(email.json().fields[0]).toMatchObject({ field: 'to', key: 'messages.invalidEmail' });
    const phone = await post(account.send, { channel: 'sms', to: '12ab', content: { text: 'hi' } });
    expect(phone.statusCode).toBe(422);
    expect(phone.json().fields[0]).toMatchObject({ field: 'to', key: 'messages.invalidPhone' });
    for (const impossible of ['+99999999999', '+1202555012399999']) {
      const unassigned = await post(account.send, { channel: 'sms', to: impossible, content: { text: 'hi' } });
      expect(unassigned.json().fields[0]).toMatchObject({ field: 'to', key: 'messages.invalidPhone' });
    }
    const tooLong = await post(account.send, { channel: 'sms', to: '+380501234567', content: { text: 'y'.repeat(40_000) } });
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json().fields).toEqual([
      { field: 'content.text', key: 'messages.smsTooLong', message: 'The SMS is too long: 262 parts, at most 20.' },
    ]);
    const twoRoutes = await post(account.send, { ...inline('a@example.com'), groupId: 1, configId: 1 });
    expect(twoRoutes.json().fields).toEqual([
      { field: 'configId', key: 'messages.routeConflict', message: 'Give groupId or configId, not both.' },
    ]);
    const both = await post(account.send, { ...inline('a@example.com'), template: 'x' });
    expect(both.json().fields[0]).toMatchObject({ field: 'template', key: 'messages.templateOrContent' });
    const noSubject = await post(account.send, { channel: 'email', to: 'a@example.com', content: { html: '<p>x</p>' } });
    expect(noSubject.json().fields[0]).toMatchObject({ field: 'content.subject', key: 'messages.contentMissing' });
    const group = await post(account.send, { ...inline('a@example.com'), groupId: 424242 });
    expect(group.json().fields[0]).toMatchObject({ field: 'groupId', key: 'messages.unknownGroup' });
    const schema = await post(account.send, { channel: 'fax', to: 'a@example.com', content: { text: 'x' } });
    expect(schema.statusCode).toBe(400);
    // Named once, though the channel is checked against each of the union's literals.
    expect(schema.json().fields).toEqual([
      { field: 'channel', key: 'validation.notInList', message: 'Choose one of the offered values' },
    ]);
    const date = await post(account.send, { ...inline('a@example.com'), sendAt: 'tomorrow' });
    expect(date.statusCode).toBe(400);
    expect(date.json().fields[0]).toMatchObject({ field: 'sendAt', key: 'validation.invalidDate' });
    // Each field's failure at once, saying what is wrong with it: a length, a type.
    const several = await post(account.send, {
      channel: 'email',
      to: 'a@example.com',
      content: { subject: 's'.repeat(3000), text: 'x' },
      locale: 7,
    });
    expect(several.statusCode).toBe(400);
    expect(several.json().fields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          field: 'content.subject',
          key: 'validation.tooLong',
          message: expect.stringMatching(/^At most \d+ characters$/),
        }),
        { field: 'locale', key: 'validation.notText', message: 'Must be text' },
      ]),
    );
    const locale = await post(account.send, { ...inline('a@example.com'), locale: 'zz-ZZ-very-long-locale-string-here' });
    expect(locale.statusCode).toBe(400);
    expect(locale.json().fields).toEqual([expect.objectContaining({ field: 'locale' })]);
    expect(await messageCount(account.accountId)).toBe(0);
  });

  it('holds a message with sendAt until its time', async () => {
    const account = await apiAccount();
    const sendAt = new Date(Date.now() + 3_600_000).toISOString();
    const { id } = (await post(account.send, { ...inline('later@example.com'), sendAt })).json();
    const row = await t.database.db
      .selectFrom('messages')
      .select('next_attempt_at')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(Number(row.next_attempt_at)).toBe(Date.parse(sendAt));
  });
});

describe('POST /api/v1/messages/batch', () => {
  it('persists every message in request order, or none when one is invalid', async () => {
    const account = await apiAccount();
    const ok = await post(
      account.send,
      { messages: [inline('one@example.com'), inline('two@example.com')] },
      '/api/v1/messages/batch',
    );
    expect(ok.statusCode).toBe(202);
    const answered = ok.json().messages;
    expect(answered.map((m: { to: string }) => m.to)).toEqual(['one@example.com', 'two@example.com']);
    expect(answered[1].id).toBeGreaterThan(answered[0].id);

    const bad = await post(
      account.send,
      { messages: [inline('three@example.com'), inline('broken'), { channel: 'email', to: 'b@example.com', template: 'gone' }] },
      '/api/v1/messages/batch',
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.json().fields.map((f: { field: string }) => f.field)).toEqual(['messages.1.to', 'messages.2.template']);
    expect(await messageCount(account.accountId)).toBe(2);
  });

  it('answers 413 for more than 1,000 messages', async () => {
    const account = await apiAccount();
    const messages = Array.from({ length: 1001 }, (_, i) => inline(`m${i}@example.com`));
    const res = await post(account.send, { messages }, '/api/v1/messages/batch');
    expect(res.statusCode).toBe(413);
    expect(res.json().key).toBe('messages.batchTooLarge');
    // A body over the batch call's own limit is refused naming that limit, not the server's default.
    const huge = await post(
      account.send,
      { messages: [{ ...inline('big@example.com'), content: { subject: 'Big', html: 'x'.repeat(33 * 1024 * 1024) } }] },
      '/api/v1/messages/batch',
    );
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ key: 'error.payloadTooLarge', message: 'The request is too large (limit 32 MB).' });
    const full = await post(account.send, { messages: messages.slice(0, 1000) }, '/api/v1/messages/batch');
    expect(full.statusCode).toBe(202);
    expect(await messageCount(account.accountId)).toBe(1000);
  });
});

describe('Idempotency-Key', () => {
  it('replays the first answer to a retry and refuses the key with another body', async () => {
    const account = await apiAccount();
    const headers = { ...account.send, 'idempotency-key': 'order-1001' };
    const first = await post(headers, inline('idem@example.com'));
    // Same body with its keys in another order is the same request.
    const again = await post(headers, {
      content: { text: 'Code 1234', subject: 'Your code' },
      to: 'idem@example.com',
      channel: 'email',
    });
    expect(first.statusCode).toBe(202);
    expect(again.statusCode).toBe(202);
    expect(again.json()).toEqual(first.json());
    const other = await post(headers, inline('someone-else@example.com'));
    expect(other.statusCode).toBe(422);
    expect(other.json().key).toBe('idempotency.mismatch');
    expect(await messageCount(account.accountId)).toBe(1);
    const batch = await post(headers, { messages: [inline('idem@example.com')] }, '/api/v1/messages/batch');
    expect(batch.json().key).toBe('idempotency.mismatch');

    // A refused request stores nothing under its key, so the corrected retry goes through.
    const fixedHeaders = { ...account.send, 'idempotency-key': 'order-1002' };
    expect((await post(fixedHeaders, inline('broken'))).statusCode).toBe(422);
    expect((await post(fixedHeaders, inline('fixed@example.com'))).statusCode).toBe(202);
    expect(await messageCount(account.accountId)).toBe(2);
  });

  it('persists exactly one message when the same request arrives many times at once', async () => {
    const account = await apiAccount();
    const headers = { ...account.send, 'idempotency-key': 'burst-7' };
    const answers = await Promise.all(Array.from({ length: 12 }, () => post(headers, inline('burst@example.com'))));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(12).fill(202));
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(await messageCount(account.accountId)).toBe(1);

    const batchHeaders = { ...account.send, 'idempotency-key': 'burst-batch' };
    const body = { messages: [inline('b1@example.com'), inline('b2@example.com')] };
    const batches = await Promise.all(Array.from({ length: 8 }, () => post(batchHeaders, body, '/api/v1/messages/batch')));
    expect(new Set(batches.map((a) => a.body)).size).toBe(1);
    expect(await messageCount(account.accountId)).toBe(3);
  });
});

describe('rate limit', () => {
  it('answers 429 with Retry-After once a key is over its rate, and not for another key', async () => {
    const account = await apiAccount();
    const slow = { authorization: `Bearer ${await createKey(account.session, 'read', 2)}` };
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => t.app.inject({ method: 'GET', url: '/api/v1/messages/1', headers: slow })),
    );
    const limited = answers.filter((a) => a.statusCode === 429);
    expect(limited.length).toBeGreaterThanOrEqual(4);
    expect(Number(limited[0]!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(limited[0]!.json()).toMatchObject({ statusCode: 429, key: 'apiKey.rateLimited' });
    const other = await t.app.inject({ method: 'GET', url: '/api/v1/messages/1', headers: account.read });
    expect(other.statusCode).toBe(404);
  });
});

describe('end to end', () => {
  it('routes an SMS through the group or the config it names', async () => {
    const account = await apiAccount();
    const config = async (name: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/data/provider-configurations',
        headers: account.session,
        payload: { name, type: 'sandbox-sms', settings: {} },
      });
      expect(res.statusCode).toBe(200);
      return res.json().id as number;
    };
    const first = await config('First');
    const second = await config('Second');
    const group = await t.app.inject({
      method: 'POST',
      url: '/api/provider-configurations/groups',
      headers: account.session,
      payload: {
        name: 'Failover',
        category: 'SMS',
        configs: [
          { providerConfigId: first, priority: 2 },
          { providerConfigId: second, priority: 1 },
        ],
      },
    });
    expect(group.statusCode).toBe(200);
    const viaGroup = await post(account.send, {
      channel: 'sms',
      to: '+380 (50) 123-45-67',
      content: { text: 'Code 1234' },
      groupId: group.json().id,
    });
    expect(viaGroup.json().to).toBe('+380501234567');
    const viaConfig = await post(account.send, { channel: 'sms', to: '+380501234567', content: { text: 'Hi' }, configId: first });
    const wrongChannel = await post(account.send, { ...inline('a@example.com'), configId: first });
    expect(wrongChannel.json().fields[0]).toMatchObject({ field: 'configId', key: 'messages.unknownConfig' });

    const dispatcher = new Dispatcher({
      db: t.database.db,
      dialect: t.database.dialect,
      pool: t.app.channels,
      content: new ApiTemplateContent(t.database.db, new CampaignContent(t.database.db, t.app.tracking)),
      owner: 'api-sms-test',
    });
    const read = (id: number) => t.app.inject({ method: 'GET', url: `/api/v1/messages/${id}`, headers: account.read });
    for (let round = 0; round < 50; round++) {
      await dispatcher.runOnce();
      if ((await read(viaConfig.json().id)).json().status !== 'unsent') break;
    }
    // The sandbox may already have reported its simulated receipt.
    const accepted = expect.stringMatching(/^(sent|delivered)$/);
    expect((await read(viaGroup.json().id)).json()).toMatchObject({ channel: 'sms', status: accepted, configId: second });
    expect((await read(viaConfig.json().id)).json()).toMatchObject({ status: accepted, configId: first });
  });

  it('renders a template message at send time, delivers it over SMTP and reports unsent → sent to a verified webhook', async () => {
    const account = await apiAccount();
    const config = await t.app.inject({
      method: 'POST',
      url: '/api/data/provider-configurations',
      headers: account.session,
      payload: {
        name: 'Sink',
        type: 'smtp',
        settings: { host: '127.0.0.1', port: sink.port, security: 'none', senderEmail: 'shop@herald.test' },
      },
    });
    expect(config.statusCode).toBe(200);
    // A variable the account declares is overridden by the message's own value.
    const variable = await t.app.inject({
      method: 'POST',
      url: '/api/data/template-variables',
      headers: account.session,
      payload: { name: 'order', value: 'none' },
    });
    expect(variable.statusCode).toBe(200);
    await template(account, {
      name: `receipt-${account.accountId}`,
      channel: 'EMAIL',
      subject: 'Order {{ vars.order }}',
      html: '<p>Thanks, {{ contact.attributes.name }}! Total {{ contact.attributes.total }}</p>',
    });
    const hook = await t.app.inject({
      method: 'PUT',
      url: '/api/data/webhooks',
      headers: account.session,
      payload: { url: receiver.url, enabled: true },
    });
    expect(hook.statusCode).toBe(200);
    receiver.secret = hook.json().secret;

    const to = `client-${account.accountId}@example.com`;
    const sent = await post(account.send, {
      channel: 'email',
      to,
      template: `receipt-${account.accountId}`,
      variables: { order: 'A-17', name: 'Olena', total: '42 EUR' },
      configId: config.json().id,
    });
    expect(sent.statusCode).toBe(202);
    const { id } = sent.json();

    const dispatcher = new Dispatcher({
      db: t.database.db,
      dialect: t.database.dialect,
      pool: t.app.channels,
      content: new ApiTemplateContent(t.database.db, new CampaignContent(t.database.db, t.app.tracking)),
      owner: 'api-test',
    });
    const delivery = new WebhookDelivery({
      db: t.database.db,
      dialect: t.database.dialect,
      secretKey: t.config.secret,
      allowPrivateTargets: true,
    });
    for (let round = 0; round < 50 && !receiver.events.some((e) => e.body.messageId === id); round++) {
      await dispatcher.runOnce();
      await delivery.runOnce();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    const mail = sink.messages.find((m) => m.rcptTo.some((r) => r.address === to));
    expect(mail).toBeDefined();
    const raw = mail!.raw.toString('utf8');
    expect(raw).toContain('Subject: Order A-17');
    expect(decodedText(raw)).toContain('Thanks, Olena! Total 42 EUR');

    const event = receiver.events.find((e) => e.body.messageId === id)!;
    expect(event.verified).toBe(true);
    expect(event.body).toMatchObject({
      type: 'message.status',
      messageId: id,
      status: 'sent',
      previousStatus: 'unsent',
      channel: 'email',
      to,
      detail: null,
    });
    expect(Number(event.eventId)).toBeGreaterThan(0);

    const read = (await t.app.inject({ method: 'GET', url: `/api/v1/messages/${id}`, headers: account.read })).json();
    expect(read).toMatchObject({
      status: 'sent',
      template: `receipt-${account.accountId}`,
      configId: config.json().id,
      attempts: 1,
    });
    expect(read.history.map((h: { status: string }) => h.status)).toEqual(['unsent', 'sent']);
    expect(read.providerMessageId).toBeTruthy();

    const log = await t.app.inject({ method: 'GET', url: '/api/data/webhooks/deliveries', headers: account.session });
    expect(log.json().items[0]).toMatchObject({
      messageId: id,
      status: 'sent',
      state: 'delivered',
      attempts: 1,
      responseCode: 204,
    });
  });
});
