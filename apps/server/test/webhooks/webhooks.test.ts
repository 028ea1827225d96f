import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { applyTransitions, insertMessages } from '../../src/messages/ledger.js';
import { MAX_DELIVERY_ATTEMPTS, WebhookDelivery } from '../../src/webhooks/delivery.js';
import { accountIdOf } from '../engine/helpers.js';
import { createTestApp, signUp, type TestApp } from '../helpers/app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

let t: TestApp;
let receiver: WebhookReceiver;

beforeAll(async () => {
  t = await createTestApp();
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

async function apiUser() {
  const user = await signUp(t.app, { role: 'api' });
  return { headers: { 'x-token': user.token }, accountId: await accountIdOf(t, user.email) };
}

async function saveHook(headers: Record<string, string>, payload: Record<string, unknown>) {
  return t.app.inject({ method: 'PUT', url: '/api/data/webhooks', headers, payload });
}

function delivery(options: Partial<ConstructorParameters<typeof WebhookDelivery>[0]> = {}) {
  return new WebhookDelivery({
    db: t.database.db,
    dialect: t.database.dialect,
    secretKey: t.config.secret,
    allowPrivateTargets: true,
    ...options,
  });
}

/** An API message (or a campaign one) moved unsent → sent through the ledger, as the engine does. */
async function sentMessage(accountId: number, campaignId: number | null = null): Promise<number> {
  const [id] = await insertMessages(t.database.db, [
    {
      accountId,
      campaignId,
      lane: campaignId === null ? 0 : 1,
      channel: 'SMS',
      recipient: '+380501234567',
      payload: JSON.stringify({ text: 'hi' }),
    },
  ]);
  const message = { id: id!, accountId, campaignId, channel: 'SMS', createdAt: Date.now(), configId: null };
  await applyTransitions(t.database.db, [{ message: { ...message, status: 'unsent' }, to: 'processing' }]);
  await applyTransitions(t.database.db, [{ message: { ...message, status: 'processing' }, to: 'sent', detail: 'ok' }]);
  return id!;
}

async function deliveries(accountId: number) {
  return t.database.db.selectFrom('webhook_deliveries').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
}

describe('webhook settings', () => {
  it('shows the secret once, keeps it encrypted, and rotates it', async () => {
    const { headers, accountId } = await apiUser();
    const empty = await t.app.inject({ method: 'GET', url: '/api/data/webhooks', headers });
    expect(empty.json()).toMatchObject({ url: null, enabled: false, events: 'api' });

    for (const url of ['ftp://example.com/hook', 'mailto:ops@example.com']) {
      const invalid = await saveHook(headers, { url, enabled: true });
      expect(invalid.statusCode).toBe(400);
      expect(invalid.json().fields[0]).toMatchObject({ field: 'url', key: 'validation.invalidUrl' });
    }

    const first = await saveHook(headers, { url: receiver.url, enabled: true });
    expect(first.statusCode).toBe(200);
    const { secret } = first.json();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const row = await t.database.db
      .selectFrom('webhooks')
      .select('secret')
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    expect(row.secret).not.toContain(secret);

    const again = await saveHook(headers, { url: receiver.url, enabled: true, events: 'all' });
    expect(again.json()).not.toHaveProperty('secret');
    expect(again.json().events).toBe('all');
    const read = await t.app.inject({ method: 'GET', url: '/api/data/webhooks', headers });
    expect(JSON.stringify(read.json())).not.toContain(secret);

    const rotated = await t.app.inject({ method: 'POST', url: '/api/data/webhooks/secret', headers });
    expect(rotated.json().secret).not.toBe(secret);

    const other = await apiUser();
    const noHook = await t.app.inject({ method: 'POST', url: '/api/data/webhooks/secret', headers: other.headers });
    expect(noHook.statusCode).toBe(409);
    expect(noHook.json().key).toBe('webhooks.notConfigured');
  });

  it('sends a signed test event the receiver verifies, and logs it', async () => {
    const { headers } = await apiUser();
    receiver.secret = (await saveHook(headers, { url: receiver.url, enabled: true })).json().secret;
    const test = await t.app.inject({ method: 'POST', url: '/api/data/webhooks/test', headers });
    expect(test.statusCode).toBe(200);
    expect(test.json()).toMatchObject({ type: 'webhook.test', state: 'delivered', attempts: 1, responseCode: 204 });
    const event = receiver.events.find((e) => e.eventId === String(test.json().id))!;
    expect(event.verified).toBe(true);
    expect(event.body.type).toBe('webhook.test');

    receiver.secret = 'whsec_not-the-secret';
    await t.app.inject({ method: 'POST', url: '/api/data/webhooks/test', headers });
    expect(receiver.events.at(-1)!.verified).toBe(false);

    const log = await t.app.inject({ method: 'GET', url: '/api/data/webhooks/deliveries?page=1&size=1', headers });
    expect(log.json().total).toBe(2);
    expect(log.json().items).toHaveLength(1);
  });

  it('is for the API profile', async () => {
    const site = await signUp(t.app, { role: 'site' });
    const res = await t.app.inject({ method: 'GET', url: '/api/data/webhooks', headers: { 'x-token': site.token } });
    expect(res.statusCode).toBe(403);
  });
});

describe('delivery', () => {
  it('queues status changes of API messages only, unless the webhook asks for every message', async () => {
    const { headers, accountId } = await apiUser();
    const now = Date.now();
    const campaign = await t.database.db
      .insertInto('campaigns')
      .values({ account_id: accountId, name: 'c', channel: 'SMS', state: 'sending', created_at: now, updated_at: now } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    await sentMessage(accountId);
    expect(await deliveries(accountId)).toHaveLength(0);

    await saveHook(headers, { url: receiver.url, enabled: true });
    const api = await sentMessage(accountId);
    await sentMessage(accountId, Number(campaign.id));
    const queued = await deliveries(accountId);
    expect(queued.map((d) => [Number(d.message_id), d.previous_status, d.status])).toEqual([[api, 'unsent', 'sent']]);

    await saveHook(headers, { url: receiver.url, enabled: true, events: 'all' });
    const fromCampaign = await sentMessage(accountId, Number(campaign.id));
    expect((await deliveries(accountId)).map((d) => Number(d.message_id))).toEqual([api, fromCampaign]);

    await saveHook(headers, { url: receiver.url, enabled: false, events: 'all' });
    await sentMessage(accountId);
    expect(await deliveries(accountId)).toHaveLength(2);
  });

  it('retries a failing receiver with backoff, then delivers', async () => {
    const { headers, accountId } = await apiUser();
    receiver.secret = (await saveHook(headers, { url: receiver.url, enabled: true })).json().secret;
    const id = await sentMessage(accountId);
    const worker = delivery({ retryBaseMs: 60_000 });
    receiver.failNext(503);
    await worker.runOnce();
    const [failed] = await deliveries(accountId);
    expect(failed).toMatchObject({ state: 'pending', attempts: 1, response_code: 503, last_error: 'HTTP 503' });
    expect(Number(failed!.next_attempt_at)).toBeGreaterThanOrEqual(Date.now() + 50_000);

    expect(await worker.runOnce()).toBe(0);
    expect(await worker.runOnce(Date.now() + 61_000)).toBe(1);
    const [delivered] = await deliveries(accountId);
    expect(delivered).toMatchObject({ state: 'delivered', attempts: 2, response_code: 204 });
    const event = receiver.events.find((e) => e.body.messageId === id)!;
    expect(event).toBeDefined();
    expect(event.verified).toBe(true);
    expect(event.body).toMatchObject({
      status: 'sent',
      previousStatus: 'unsent',
      channel: 'sms',
      to: '+380501234567',
      detail: 'ok',
    });
  });

  it("posts one message's events in the order they happened", async () => {
    const { headers, accountId } = await apiUser();
    receiver.secret = (await saveHook(headers, { url: receiver.url, enabled: true })).json().secret;
    const id = await sentMessage(accountId);
    const message = { id, accountId, campaignId: null, channel: 'SMS', createdAt: Date.now(), configId: null };
    await applyTransitions(t.database.db, [{ message: { ...message, status: 'sent' }, to: 'delivered', detail: 'DELIVRD' }]);
    await applyTransitions(t.database.db, [{ message: { ...message, status: 'delivered' }, to: 'read' }]);
    await delivery().runOnce();
    const events = receiver.events.filter((e) => e.body.messageId === id).map((e) => [e.body.previousStatus, e.body.status]);
    expect(events).toEqual([
      ['unsent', 'sent'],
      ['sent', 'delivered'],
      ['delivered', 'read'],
    ]);
  });

  it("refuses for good a receiver inside the server's own networks, unless they are allowed", async () => {
    const { headers, accountId } = await apiUser();
    await saveHook(headers, { url: receiver.url, enabled: true });
    await sentMessage(accountId);
    await delivery({ allowPrivateTargets: false }).runOnce();
    const [refused] = await deliveries(accountId);
    expect(refused).toMatchObject({
      state: 'failed',
      attempts: 1,
      last_error: "refused: 127.0.0.1 is inside the server's own networks (WEBHOOK_PRIVATE_TARGETS=1 allows it)",
    });
    const outside = delivery({ allowPrivateTargets: false });
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]:8080/',
      'http://[::ffff:10.0.0.1]/',
      'http://localhost:1/',
    ]) {
      expect((await outside.post(url, 'secret', 1, '{}')).error).toMatch(/^refused: /);
    }
  });

  it("holds a message's later events back while an earlier one waits for its retry", async () => {
    const { headers, accountId } = await apiUser();
    receiver.secret = (await saveHook(headers, { url: receiver.url, enabled: true })).json().secret;
    const id = await sentMessage(accountId);
    const message = { id, accountId, campaignId: null, channel: 'SMS', createdAt: Date.now(), configId: null };
    const worker = delivery({ retryBaseMs: 60_000 });
    receiver.failNext(503);
    await worker.runOnce();
    // The receipt arrives while `sent` waits for its retry.
    await applyTransitions(t.database.db, [{ message: { ...message, status: 'sent' }, to: 'delivered', detail: 'DELIVRD' }]);
    await worker.runOnce();
    await worker.runOnce(Date.now() + 30_000);
    const received = () => receiver.events.filter((e) => e.body.messageId === id).map((e) => e.body.status);
    expect(received()).toEqual([]);
    expect((await deliveries(accountId)).map((d) => [d.status, d.state, Number(d.attempts)])).toEqual([
      ['sent', 'pending', 1],
      ['delivered', 'pending', 0],
    ]);
    await worker.runOnce(Date.now() + 61_000);
    await worker.runOnce(Date.now() + 61_000);
    expect(received()).toEqual(['sent', 'delivered']);
  });

  it('names the failover as the previous status of the outcome that followed it', async () => {
    const { headers, accountId } = await apiUser();
    receiver.secret = (await saveHook(headers, { url: receiver.url, enabled: true })).json().secret;
    const [id] = await insertMessages(t.database.db, [
      { accountId, campaignId: null, lane: 0, channel: 'SMS', recipient: '+380501234567', payload: '{"text":"hi"}' },
    ]);
    const message = { id: id!, accountId, campaignId: null, channel: 'SMS', createdAt: Date.now(), configId: null };
    await applyTransitions(t.database.db, [{ message: { ...message, status: 'unsent' }, to: 'processing' }]);
    await applyTransitions(t.database.db, [
      {
        message: { ...message, status: 'processing' },
        to: 'sent',
        passedOver: [{ configId: 1, detail: 'connect ECONNREFUSED' }],
      },
    ]);
    expect((await deliveries(accountId)).map((d) => [d.previous_status, d.status])).toEqual([
      ['unsent', 'processing'],
      ['processing', 'sent'],
    ]);
  });

  it('keeps the delivery log 30 days and idempotency answers a day', async () => {
    // A database of its own: the purge relies on rows arriving in time order, which this test's old rows fake.
    const fresh = await createTestApp();
    onTestFinished(() => fresh.close());
    const db = fresh.database.db;
    const accountId = await accountIdOf(fresh, (await signUp(fresh.app, { role: 'api' })).email);
    const day = 24 * 60 * 60 * 1000;
    const now = Date.now();
    const row = (at: number, state: string) => ({
      account_id: accountId,
      type: 'webhook.test',
      message_id: null,
      status: null,
      previous_status: null,
      detail: null,
      at,
      state,
      attempts: 1,
      next_attempt_at: at,
      lease_until: null,
      response_code: null,
      last_error: null,
      delivered_at: null,
    });
    await db
      .insertInto('webhook_deliveries')
      .values([
        row(now - 40 * day, 'delivered'),
        row(now - 35 * day, 'pending'),
        row(now - 31 * day, 'failed'),
        row(now - day, 'delivered'),
      ])
      .execute();
    await db
      .insertInto('idempotency_keys')
      .values([
        { account_id: accountId, key: 'old', request_hash: 'h', answer: '{}', created_at: now - 2 * day },
        { account_id: accountId, key: 'new', request_hash: 'h', answer: '{}', created_at: now - 1000 },
      ])
      .execute();
    await new WebhookDelivery({ db, dialect: fresh.database.dialect, secretKey: fresh.config.secret }).purge(now);
    const left = await db.selectFrom('webhook_deliveries').selectAll().orderBy('id').execute();
    expect(left.map((d) => [d.state, Math.round((now - Number(d.at)) / day)])).toEqual([
      ['pending', 35],
      ['delivered', 1],
    ]);
    const keys = await db.selectFrom('idempotency_keys').select('key').where('account_id', '=', accountId).execute();
    expect(keys.map((k) => k.key)).toEqual(['new']);
  });

  it('gives up after the last attempt, and a receiver that never answers times out', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { headers, accountId } = await apiUser();
      await saveHook(headers, { url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`, enabled: true });
      await sentMessage(accountId);
      const worker = delivery({ retryBaseMs: 1, timeoutMs: 300 });
      const started = Date.now();
      for (let attempt = 0; attempt < MAX_DELIVERY_ATTEMPTS; attempt++) await worker.runOnce(Date.now() + 10 * 60 * 60 * 1000);
      expect(Date.now() - started).toBeLessThan(MAX_DELIVERY_ATTEMPTS * 5000);
      const [row] = await deliveries(accountId);
      expect(row).toMatchObject({ state: 'failed', attempts: MAX_DELIVERY_ATTEMPTS, last_error: 'no answer within 0.3 s' });
      expect(await worker.runOnce(Date.now() + 100 * 60 * 60 * 1000)).toBe(0);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});
