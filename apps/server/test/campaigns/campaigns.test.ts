import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CampaignContent } from '../../src/campaigns/content.js';
import { Dispatcher } from '../../src/engine/dispatcher.js';
import { accountIdOf, rollupCounts, statusCounts } from '../engine/helpers.js';
import { createTestApp, signUp, type TestApp } from '../helpers/app.js';
import { decodedText } from '../helpers/mime.js';
import { type SmppTestServer, startSmppServer } from '../helpers/smpp-server.js';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink.js';

let t: TestApp;
let sink: SmtpSink;

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  sink = await startSmtpSink();
});
afterAll(async () => {
  await t.close();
  await sink.close();
});

interface Account {
  token: string;
  accountId: number;
  headers: { 'x-token': string };
}

async function newAccount(): Promise<Account> {
  const user = await signUp(t.app);
  return { token: user.token, accountId: await accountIdOf(t, user.email), headers: { 'x-token': user.token } };
}

/** Contacts go in straight through the database: this suite is about sending, the contacts suite covers import. */
async function listWith(
  account: Account,
  contacts: { email?: string; phone?: string; name?: string; status?: string }[],
): Promise<number> {
  const now = Date.now();
  const list = await t.database.db
    .insertInto('contact_lists')
    .values({ account_id: account.accountId, name: `List ${now}-${Math.random()}`, created_at: now, updated_at: now } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  // A thousand rows per insert keeps each statement under SQLite's bound-parameter limit.
  for (let start = 0; start < contacts.length; start += 1000) {
    await t.database.db
      .insertInto('contacts')
      .values(
        contacts.slice(start, start + 1000).map((contact) => ({
          account_id: account.accountId,
          list_id: Number(list.id),
          email: contact.email ?? null,
          phone: contact.phone ?? null,
          name: contact.name ?? null,
          status: contact.status ?? 'active',
          attributes: JSON.stringify({ city: 'Kyiv' }),
          created_at: now,
          updated_at: now,
        })) as never,
      )
      .execute();
  }
  return Number(list.id);
}

async function template(account: Account, body: Record<string, unknown>): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/api/data/templates', headers: account.headers, payload: body });
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json().name;
}

function createCampaign(account: Account, payload: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/api/data/campaigns', headers: account.headers, payload });
}

function startCampaign(account: Account, campaignId: number, payload: Record<string, unknown> = {}) {
  return t.app.inject({ method: 'POST', url: `/api/data/campaigns/${campaignId}/start`, headers: account.headers, payload });
}

function campaignDispatcher(): Dispatcher {
  return new Dispatcher({
    db: t.database.db,
    dialect: t.database.dialect,
    pool: t.app.channels,
    content: new CampaignContent(t.database.db, t.app.tracking),
    owner: 'campaign-test',
  });
}

async function runToEnd(dispatcher: Dispatcher, campaignId: number): Promise<void> {
  for (let round = 0; round < 100; round++) {
    await t.app.campaigns.tick();
    const claimed = await dispatcher.runOnce();
    const row = await t.database.db
      .selectFrom('campaigns')
      .select('state')
      .where('id', '=', campaignId)
      .executeTakeFirstOrThrow();
    if (claimed === 0 && row.state !== 'sending' && row.state !== 'scheduled') return;
  }
}

describe('campaigns', () => {
  it('sends a whole e-mail campaign into an SMTP sink, every recipient once, rendered', async () => {
    const account = await newAccount();
    const smtp = await t.app.inject({
      method: 'POST',
      url: '/api/data/provider-configurations',
      headers: account.headers,
      payload: {
        name: 'Sink',
        type: 'smtp',
        settings: { host: '127.0.0.1', port: sink.port, security: 'none', senderEmail: 'news@herald.test' },
      },
    });
    const recipients = Array.from({ length: 60 }, (_, i) => ({
      email: `c${i}-${account.accountId}@example.com`,
      name: `Reader ${i}`,
    }));
    const listId = await listWith(account, [
      ...recipients,
      { email: 'gone@example.com', status: 'unsubscribed' },
      { phone: '+380501234567' },
    ]);
    const templateName = await template(account, {
      name: `news-${account.accountId}`,
      channel: 'EMAIL',
      subject: 'Hello {{ contact.name }}',
      html: '<p>Hi {{ contact.name }} from {{ contact.attributes.city }}</p>',
    });
    const created = await createCampaign(account, {
      name: 'November news',
      channel: 'EMAIL',
      listId,
      templateName,
      configId: smtp.json().id,
    });
    expect(created.statusCode).toBe(200);
    const campaign = created.json();
    expect(campaign.state).toBe('draft');

    const check = await t.app.inject({
      method: 'GET',
      url: `/api/data/campaigns/${campaign.id}/check`,
      headers: account.headers,
    });
    expect(check.json()).toMatchObject({ recipients: 60, suppressed: 2 });

    const started = await startCampaign(account, campaign.id);
    expect(started.json().state).toBe('sending');
    const before = sink.messages.length;
    await runToEnd(campaignDispatcher(), campaign.id);

    const done = (
      await t.app.inject({ method: 'GET', url: `/api/data/campaigns/${campaign.id}`, headers: account.headers })
    ).json();
    expect(done).toMatchObject({ state: 'sent', total: 60, suppressed: 2, counts: { sent: 60 }, templateName });
    expect(done.listName).toMatch(/^List /);
    const received = sink.messages.slice(before);
    expect(received).toHaveLength(60);
    expect(new Set(received.map((m) => m.rcptTo[0]?.address)).size).toBe(60);
    const sample = received.find((m) => m.rcptTo[0]?.address === recipients[7]!.email)!;
    expect(sample.raw.toString()).toContain('Subject: Hello Reader 7');
    expect(decodedText(sample.raw.toString())).toContain('from Kyiv');

    const log = await t.app.inject({
      method: 'GET',
      url: `/api/data/campaigns/${campaign.id}/messages?status=sent&page=1&size=10`,
      headers: account.headers,
    });
    expect(log.json()).toMatchObject({
      total: 60,
      items: expect.arrayContaining([expect.objectContaining({ status: 'sent', providerConfig: 'Sink' })]),
    });
    expect(log.json().items).toHaveLength(10);
  });

  it('sends a whole SMS campaign over SMPP, every recipient once, and applies its delivery receipts', async () => {
    const smsc: SmppTestServer = await startSmppServer({ systemId: 'herald', password: 'secret' });
    try {
      const account = await newAccount();
      const smpp = await t.app.inject({
        method: 'POST',
        url: '/api/data/provider-configurations',
        headers: account.headers,
        payload: {
          name: 'SMSC',
          type: 'smpp',
          settings: { host: '127.0.0.1', port: smsc.port, systemId: 'herald', password: 'secret', sender: 'Herald' },
        },
      });
      const phones = Array.from({ length: 40 }, (_, i) => `+38050${String(2000000 + i)}`);
      const listId = await listWith(
        account,
        phones.map((phone, i) => ({ phone, name: `Абонент ${i}` })),
      );
      const templateName = await template(account, {
        name: `smpp-${account.accountId}`,
        channel: 'SMS',
        smsText: 'Привет, {{ contact.name }}!',
      });
      const campaign = (
        await createCampaign(account, { name: 'SMPP', channel: 'SMS', listId, templateName, configId: smpp.json().id })
      ).json();
      await startCampaign(account, campaign.id);
      const dispatcher = campaignDispatcher();
      await runToEnd(dispatcher, campaign.id);
      expect(
        (await t.app.inject({ method: 'GET', url: `/api/data/campaigns/${campaign.id}`, headers: account.headers })).json(),
      ).toMatchObject({
        state: 'sent',
        counts: { sent: 40 },
      });
      const destinations = smsc.submits.map((submit) => String(submit.pdu.destination_addr));
      expect(new Set(destinations).size).toBe(40);
      expect(destinations.sort()).toEqual(phones.map((phone) => phone.slice(1)).sort());
      const first = smsc.submits[0]!;
      const delivered = await t.database.db
        .selectFrom('messages')
        .select('id')
        .where('campaign_id', '=', campaign.id)
        .where('provider_message_id', '=', first.messageId!)
        .executeTakeFirstOrThrow();
      await smsc.sendReceipt({ messageId: first.messageId!, stat: 'DELIVRD' });
      for (let i = 0; i < 40; i++) {
        const row = await t.database.db
          .selectFrom('messages')
          .select('status')
          .where('id', '=', delivered.id)
          .executeTakeFirstOrThrow();
        if (row.status === 'delivered') break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const counts = (
        await t.app.inject({ method: 'GET', url: `/api/data/campaigns/${campaign.id}`, headers: account.headers })
      ).json().counts;
      expect(counts).toEqual({ sent: 39, delivered: 1 });
    } finally {
      await smsc.close();
    }
  });

  it('puts every recipient of a large list in the ledger in one supervisor tick, chunk after chunk', async () => {
    const account = await newAccount();
    // Two and a half of the supervisor's 10,000-recipient chunks.
    const recipients = 25_000;
    const listId = await listWith(
      account,
      Array.from({ length: recipients }, (_, i) => ({ email: `r${i}-${account.accountId}@example.com` })),
    );
    const templateName = await template(account, {
      name: `large-${account.accountId}`,
      channel: 'EMAIL',
      subject: 'Hi',
      html: '<p>Hi {{ contact.email }}</p>',
    });
    const created = await createCampaign(account, { name: 'Large', channel: 'EMAIL', listId, templateName });
    const id = created.json().id;
    const started = await startCampaign(account, id);
    expect(started.json().state).toBe('sending');

    await t.app.campaigns.tick();
    const campaign = (await t.app.inject({ method: 'GET', url: `/api/data/campaigns/${id}`, headers: account.headers })).json();
    expect(campaign).toMatchObject({ state: 'sending', total: recipients });
    expect(await statusCounts(t, account.accountId)).toEqual({ unsent: recipients });
    // Cancelled, so the tests after this one do not send its messages.
    await t.app.inject({ method: 'POST', url: `/api/data/campaigns/${id}/cancel`, headers: account.headers, payload: {} });
  });

  it('refuses an empty list and a selection without an active config, with the spec messages', async () => {
    const account = await newAccount();
    const empty = await listWith(account, []);
    const templateName = await template(account, { name: `t-${account.accountId}`, channel: 'SMS', smsText: 'Hi' });
    const res = await createCampaign(account, { name: 'Empty', channel: 'SMS', listId: empty, templateName });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toContainEqual(
      expect.objectContaining({ field: 'listId', message: 'A campaign cannot be created with an empty contact list.' }),
    );

    const full = await listWith(account, [{ phone: '+380501234567' }]);
    const configs = (
      await t.app.inject({ method: 'GET', url: '/api/data/provider-configurations/custom', headers: account.headers })
    ).json();
    for (const config of configs) {
      await t.app.inject({
        method: 'PUT',
        url: '/api/data/provider-configurations',
        headers: account.headers,
        payload: { ...config, active: false, settings: config.settings },
      });
    }
    const inactive = await createCampaign(account, { name: 'No config', channel: 'SMS', listId: full, templateName });
    expect(inactive.json().fields).toContainEqual(expect.objectContaining({ key: 'campaigns.noActiveConfig' }));
  });

  it("refuses another channel's config, an unknown config and a start in the past, naming the field", async () => {
    const account = await newAccount();
    const listId = await listWith(account, [{ email: 'reader@example.com' }]);
    const templateName = await template(account, {
      name: `e-${account.accountId}`,
      channel: 'EMAIL',
      subject: 'Hi',
      html: '<p>Hi</p>',
    });
    const configs = (
      await t.app.inject({ method: 'GET', url: '/api/data/provider-configurations/custom', headers: account.headers })
    ).json() as { id: number; category: string }[];
    const smsConfig = configs.find((config) => config.category === 'SMS')!;
    const wrongChannel = await createCampaign(account, {
      name: 'Mixed',
      channel: 'EMAIL',
      listId,
      templateName,
      configId: smsConfig.id,
    });
    expect(wrongChannel.statusCode).toBe(400);
    expect(wrongChannel.json().fields).toEqual([
      expect.objectContaining({ field: 'configId', message: 'This provider config or group sends the other channel.' }),
    ]);
    const unknown = await createCampaign(account, { name: 'Unknown', channel: 'EMAIL', listId, templateName, configId: 999_999 });
    expect(unknown.json().fields).toEqual([expect.objectContaining({ field: 'configId', key: 'error.notFound' })]);

    const draft = (await createCampaign(account, { name: 'Late', channel: 'EMAIL', listId, templateName })).json();
    const past = await startCampaign(account, draft.id, { scheduledAt: Date.now() - 3_600_000 });
    expect(past.statusCode).toBe(400);
    expect(past.json().fields).toEqual([
      expect.objectContaining({ field: 'scheduledAt', message: 'Choose a time in the future.' }),
    ]);
    const campaign = (
      await t.app.inject({ method: 'GET', url: `/api/data/campaigns/${draft.id}`, headers: account.headers })
    ).json();
    expect(campaign.state).toBe('draft');
    // Pausing a draft is refused for its state, also when the call says JSON and sends no body.
    const pause = await t.app.inject({
      method: 'POST',
      url: `/api/data/campaigns/${draft.id}/pause`,
      headers: { ...account.headers, 'content-type': 'application/json' },
    });
    expect(pause.statusCode).toBe(409);
    expect(pause.json().key).toBe('campaigns.wrongState');
    // A moment ago (a slow click) still means now.
    expect((await startCampaign(account, draft.id, { scheduledAt: Date.now() - 5000 })).json().state).toBe('sending');
    // Started once, it cannot be started again: refused for its state, as pausing a draft is.
    const again = await startCampaign(account, draft.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().key).toBe('campaigns.notEditable');
    await t.app.inject({ method: 'POST', url: `/api/data/campaigns/${draft.id}/cancel`, headers: account.headers, payload: {} });
  });

  it("refuses a name another campaign has; copies are named in the reader's language and never collide", async () => {
    const account = await newAccount();
    const listId = await listWith(account, [{ email: 'named@example.com' }]);
    const templateName = await template(account, {
      name: `n-${account.accountId}`,
      channel: 'EMAIL',
      subject: 'Hi',
      html: '<p>Hi</p>',
    });
    const body = { name: 'Spring', channel: 'EMAIL', listId, templateName };
    const spring = (await createCampaign(account, body)).json();
    const again = await createCampaign(account, { ...body, name: ' Spring ' });
    expect(again.statusCode).toBe(400);
    expect(again.json().fields).toEqual([expect.objectContaining({ field: 'name', message: 'This name already exists.' })]);
    const kept = await t.app.inject({
      method: 'PUT',
      url: `/api/data/campaigns/${spring.id}`,
      headers: account.headers,
      payload: body,
    });
    expect(kept.statusCode).toBe(200);
    const duplicate = async (language: string) =>
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/data/campaigns/${spring.id}/duplicate`,
          headers: { ...account.headers, 'accept-language': language },
        })
      ).json().name;
    expect(await duplicate('ru')).toBe('Spring (копия)');
    expect(await duplicate('en')).toBe('Spring (copy)');
    expect(await duplicate('en')).toBe('Spring (copy 2)');
  });

  it('says when a spent day limit holds a sending campaign back, and until when', async () => {
    const account = await newAccount();
    const listId = await listWith(
      account,
      Array.from({ length: 3 }, (_, i) => ({ email: `held-${i}@example.com` })),
    );
    const templateName = await template(account, {
      name: `h-${account.accountId}`,
      channel: 'EMAIL',
      subject: 'Hi',
      html: '<p>Hi</p>',
    });
    const config = await t.app.inject({
      method: 'POST',
      url: '/api/data/provider-configurations',
      headers: account.headers,
      payload: { name: 'One a day', type: 'sandbox-email', limitPerDay: 1 },
    });
    const campaign = (
      await createCampaign(account, { name: 'Held', channel: 'EMAIL', listId, templateName, configId: config.json().id })
    ).json();
    expect(campaign.waitingForLimit).toBeNull();
    const check = async (id: number) =>
      (await t.app.inject({ method: 'GET', url: `/api/data/campaigns/${id}/check`, headers: account.headers })).json();
    // The check step can tell that only one of the three goes today.
    expect(await check(campaign.id)).toMatchObject({ recipients: 3, limitHeadroom: 1 });
    const unlimited = (await createCampaign(account, { name: 'Default route', channel: 'EMAIL', listId, templateName })).json();
    expect((await check(unlimited.id)).limitHeadroom).toBeNull();
    await startCampaign(account, campaign.id);
    const dispatcher = campaignDispatcher();
    for (let round = 0; round < 5; round++) {
      await t.app.campaigns.tick();
      await dispatcher.runOnce();
    }
    const held = (
      await t.app.inject({ method: 'GET', url: `/api/data/campaigns/${campaign.id}`, headers: account.headers })
    ).json();
    expect(held).toMatchObject({ state: 'sending', counts: { sent: 1, unsent: 2 }, waitingForLimit: { limit: 'day' } });
    expect(held.waitingForLimit.until).toBeGreaterThan(Date.now());
    expect((await check(campaign.id)).limitHeadroom).toBe(0);
    const listed = (await t.app.inject({ method: 'GET', url: '/api/data/campaigns', headers: account.headers })).json();
    expect(listed.items.find((item: { id: number }) => item.id === campaign.id).waitingForLimit).toEqual(held.waitingForLimit);
    await t.app.inject({
      method: 'POST',
      url: `/api/data/campaigns/${campaign.id}/cancel`,
      headers: account.headers,
      payload: {},
    });
  });

  it("estimates an SMS campaign's cost at the price per part of the config expected to send it, beside its balance", async () => {
    const account = await newAccount();
    const listId = await listWith(
      account,
      Array.from({ length: 3 }, (_, i) => ({ phone: `+38050${String(2000000 + i)}` })),
    );
    // Cyrillic text over 70 characters: two UCS-2 parts a message.
    const templateName = await template(account, {
      name: `cost-${account.accountId}`,
      channel: 'SMS',
      smsText: 'Здравствуйте! Ваш заказ собран и ждёт вас в пункте выдачи до конца недели. Спасибо!',
    });
    const config = async (name: string, settings: Record<string, unknown>) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/data/provider-configurations',
        headers: account.headers,
        payload: { name, type: 'sandbox-sms', settings: { sender: 'Shop', ...settings } },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { id: number; settings: Record<string, unknown> };
    };
    const cheap = await config('Cheap SMS', { pricePerPart: 0.05, balance: 0.2 });
    const dear = await config('Dear SMS', { pricePerPart: 0.5 });
    const unpriced = await config('Unpriced SMS', {});
    expect(cheap.settings.pricePerPart).toBe(0.05);
    const badPrice = await t.app.inject({
      method: 'POST',
      url: '/api/data/provider-configurations',
      headers: account.headers,
      payload: { name: 'Bad price', type: 'sandbox-sms', settings: { sender: 'Shop', pricePerPart: -1 } },
    });
    expect(badPrice.statusCode).toBe(400);
    expect(badPrice.json().fields).toEqual([expect.objectContaining({ field: 'pricePerPart' })]);
    const group = await t.app.inject({
      method: 'POST',
      url: '/api/provider-configurations/groups',
      headers: account.headers,
      payload: {
        name: 'Dear first',
        category: 'SMS',
        configs: [
          { providerConfigId: cheap.id, priority: 2 },
          { providerConfigId: dear.id, priority: 1 },
        ],
      },
    });
    expect(group.statusCode, group.body).toBe(200);
    const check = async (route: Record<string, unknown>) => {
      const campaign = await createCampaign(account, {
        name: `Cost ${JSON.stringify(route)}`,
        channel: 'SMS',
        listId,
        templateName,
        ...route,
      });
      expect(campaign.statusCode, campaign.body).toBe(200);
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/data/campaigns/${campaign.json().id}/check`,
        headers: account.headers,
      });
      return res.json();
    };

    // The group sends through its priority 1 config first: its price counts.
    expect(await check({ groupId: group.json().id })).toMatchObject({
      smsParts: 2,
      estimatedParts: 6,
      estimatedCost: { configId: dear.id, configName: 'Dear SMS', amount: 3, balance: null },
    });
    // Once read, the config's balance stands beside the cost: 0.20 does not cover 0.30.
    await t.app.inject({
      method: 'POST',
      url: '/api/data/provider-configurations/balances',
      headers: account.headers,
      payload: { ids: [cheap.id] },
    });
    expect((await check({ configId: cheap.id })).estimatedCost).toEqual({
      configId: cheap.id,
      configName: 'Cheap SMS',
      amount: 0.3,
      balance: 0.2,
      currency: 'SBX',
    });
    // A config without a price gives no cost, only the parts.
    expect(await check({ configId: unpriced.id })).toMatchObject({ estimatedParts: 6, estimatedCost: null });
  });

  it('ends failed, saying why, when none of its messages reached a provider', async () => {
    const account = await newAccount();
    const listId = await listWith(
      account,
      Array.from({ length: 3 }, (_, i) => ({ phone: `+38050${String(3000000 + i)}` })),
    );
    const templateName = await template(account, { name: `none-${account.accountId}`, channel: 'SMS', smsText: 'Hello' });
    // Its only configuration serves the United States: the Ukrainian numbers are filtered out.
    const config = await t.app.inject({
      method: 'POST',
      url: '/api/data/provider-configurations',
      headers: account.headers,
      payload: { name: 'US only', type: 'sandbox-sms', settings: { sender: 'Shop' }, filter: [{ kind: 'country', value: 'US' }] },
    });
    const campaign = (
      await createCampaign(account, { name: 'Nobody served', channel: 'SMS', listId, templateName, configId: config.json().id })
    ).json();
    await startCampaign(account, campaign.id);
    await runToEnd(campaignDispatcher(), campaign.id);
    const ended = (
      await t.app.inject({ method: 'GET', url: `/api/data/campaigns/${campaign.id}`, headers: account.headers })
    ).json();
    expect(ended).toMatchObject({ state: 'failed', counts: { filtered: 3 } });
    expect(ended.detail).toBe(
      'No message reached a provider: 0 failed, 3 were filtered out. See why in the campaign log, fix the provider configurations, then duplicate the campaign.',
    );
    expect(ended.finishedAt).toEqual(expect.any(Number));
  });

  it('pauses, resumes and cancels; a scheduled campaign waits for its time', async () => {
    const account = await newAccount();
    const listId = await listWith(
      account,
      Array.from({ length: 30 }, (_, i) => ({ phone: `+38050${String(1000000 + i)}` })),
    );
    const templateName = await template(account, {
      name: `sms-${account.accountId}`,
      channel: 'SMS',
      smsText: 'Привет, {{ contact.phone }}',
    });
    const create = (name: string) => createCampaign(account, { name, channel: 'SMS', listId, templateName });
    const campaign = (await create('SMS')).json();
    const check = (
      await t.app.inject({ method: 'GET', url: `/api/data/campaigns/${campaign.id}/check`, headers: account.headers })
    ).json();
    expect(check).toMatchObject({ recipients: 30, smsParts: 1, estimatedParts: 30 });

    await startCampaign(account, campaign.id);
    await t.app.campaigns.tick();
    const paused = await t.app.inject({
      method: 'POST',
      url: `/api/data/campaigns/${campaign.id}/pause`,
      headers: account.headers,
    });
    expect(paused.json().state).toBe('paused');
    const dispatcher = campaignDispatcher();
    expect(await dispatcher.runOnce()).toBe(0);
    await t.app.inject({ method: 'POST', url: `/api/data/campaigns/${campaign.id}/resume`, headers: account.headers });
    await runToEnd(dispatcher, campaign.id);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/data/campaigns/${campaign.id}`, headers: account.headers })).json(),
    ).toMatchObject({
      state: 'sent',
      counts: { sent: 30 },
    });

    const later = (await create('SMS later')).json();
    await startCampaign(account, later.id, { scheduledAt: Date.now() + 60_000 });
    await t.app.campaigns.tick();
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/data/campaigns/${later.id}`, headers: account.headers })).json(),
    ).toMatchObject({ state: 'scheduled', total: 0 });
    // Changed while scheduled, it is a draft again: nothing unconfirmed goes out at the old time.
    const edited = await t.app.inject({
      method: 'PUT',
      url: `/api/data/campaigns/${later.id}`,
      headers: account.headers,
      payload: { name: 'SMS later (edited)', channel: 'SMS', listId, templateName },
    });
    expect(edited.json()).toMatchObject({ state: 'draft', scheduledAt: null, name: 'SMS later (edited)' });
    await t.app.campaigns.tick(Date.now() + 61_000);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/data/campaigns/${later.id}`, headers: account.headers })).json().state,
    ).toBe('draft');
    await startCampaign(account, later.id, { scheduledAt: Date.now() + 60_000 });
    await t.app.campaigns.tick(Date.now() + 61_000);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/data/campaigns/${later.id}`, headers: account.headers })).json().state,
    ).toBe('sending');
    const cancelled = await t.app.inject({
      method: 'POST',
      url: `/api/data/campaigns/${later.id}/cancel`,
      headers: account.headers,
    });
    expect(cancelled.json().state).toBe('cancelled');
    expect(await statusCounts(t, account.accountId)).toMatchObject({ sent: 30 });
    const counts = await rollupCounts(t, account.accountId);
    expect(counts.sent).toBe(30);
  });

  it('streams progress as server-sent events', async () => {
    const account = await newAccount();
    const listId = await listWith(account, [{ phone: '+380501234567' }]);
    const templateName = await template(account, { name: `live-${account.accountId}`, channel: 'SMS', smsText: 'Hi' });
    const campaign = (await createCampaign(account, { name: 'Live', channel: 'SMS', listId, templateName })).json();
    await startCampaign(account, campaign.id);
    await t.app.campaigns.tick();
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const controller = new AbortController();
    const response = await fetch(`${address}/api/data/campaigns/progress`, {
      headers: account.headers,
      signal: controller.signal,
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = response.body!.getReader();
    const { value } = await reader.read();
    controller.abort();
    const event = JSON.parse(
      new TextDecoder()
        .decode(value)
        .replace(/^data: /, '')
        .trim(),
    );
    expect(event.campaigns).toEqual([{ id: campaign.id, state: 'sending', total: 1, counts: { unsent: 1 } }]);
  });

  it('answers 404 for another account’s campaign on every verb', async () => {
    const owner = await newAccount();
    const stranger = await newAccount();
    const listId = await listWith(owner, [{ phone: '+380501234567' }]);
    const templateName = await template(owner, { name: `own-${owner.accountId}`, channel: 'SMS', smsText: 'Hi' });
    const campaign = (
      await t.app.inject({
        method: 'POST',
        url: '/api/data/campaigns',
        headers: owner.headers,
        payload: { name: 'Mine', channel: 'SMS', listId, templateName },
      })
    ).json();
    const calls = [
      ['GET', ''],
      ['PUT', ''],
      ['DELETE', ''],
      ['GET', '/check'],
      ['POST', '/start'],
      ['POST', '/pause'],
      ['POST', '/resume'],
      ['POST', '/cancel'],
      ['POST', '/duplicate'],
      ['GET', '/messages'],
    ] as const;
    for (const [method, suffix] of calls) {
      const res = await t.app.inject({
        method,
        url: `/api/data/campaigns/${campaign.id}${suffix}`,
        headers: stranger.headers,
        ...(method === 'PUT'
          ? { payload: { name: 'x', channel: 'SMS', listId, templateName } }
          : method === 'POST'
            ? { payload: {} }
            : {}),
      });
      expect(res.statusCode, `${method} ${suffix}`).toBe(404);
    }
  });
});
