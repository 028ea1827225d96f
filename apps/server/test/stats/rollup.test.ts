/**
 * Reports read only the rollup; after a mixed run through the real engine (failover to a second SMTP config,
 * recipients refused, opens, sandbox SMS receipts, API messages) every report figure must equal a direct
 * count over messages, per status, config, campaign and local day. The daily rollup stays the hourly one summed
 * per UTC day, after that run and after an account's deletion.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CampaignContent } from '../../src/campaigns/content.js';
import { Dispatcher } from '../../src/engine/dispatcher.js';
import { insertMessages } from '../../src/messages/ledger.js';
import { accountIdOf } from '../engine/helpers.js';
import { createTestApp, signUp, type TestApp } from '../helpers/app.js';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink.js';

let t: TestApp;
let sink: SmtpSink;

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  // Recipients named refuse-… are refused for good at RCPT TO, so some messages end failed.
  sink = await startSmtpSink({
    rejectRecipient: (address) => (address.startsWith('refuse-') ? { code: 550, text: 'No such user' } : undefined),
  });
});
afterAll(async () => {
  await t.close();
  await sink.close();
});

/** Time zone 001 of sign-up is UTC−12: a local day starts at 12:00 UTC. */
const ZONE_OFFSET_MS = -12 * 3_600_000;

type Headers = { 'x-token': string };

async function post(headers: Headers, url: string, payload: unknown) {
  const res = await t.app.inject({ method: 'POST', url, headers, payload: payload as object });
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.body}`);
  return res.json();
}

async function listWith(accountId: number, contacts: { email?: string; phone?: string }[]): Promise<number> {
  const now = Date.now();
  const list = await t.database.db
    .insertInto('contact_lists')
    .values({ account_id: accountId, name: `List ${now}-${Math.random()}`, created_at: now, updated_at: now } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  await t.database.db
    .insertInto('contacts')
    .values(
      contacts.map((contact) => ({
        account_id: accountId,
        list_id: Number(list.id),
        email: contact.email ?? null,
        phone: contact.phone ?? null,
        status: 'active',
        attributes: '{}',
        created_at: now,
        updated_at: now,
      })) as never,
    )
    .execute();
  return Number(list.id);
}

async function runCampaign(dispatcher: Dispatcher, headers: Headers, campaignId: number) {
  await post(headers, `/api/data/campaigns/${campaignId}/start`, {});
  for (let round = 0; round < 200; round++) {
    await t.app.campaigns.tick();
    const claimed = await dispatcher.runOnce();
    const row = await t.database.db
      .selectFrom('campaigns')
      .select('state')
      .where('id', '=', campaignId)
      .executeTakeFirstOrThrow();
    if (claimed === 0 && row.state !== 'sending') return;
  }
  throw new Error('campaign did not finish');
}

async function until(condition: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 400; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

type Counts = Record<string, Record<string, number>>;

/** A direct count over messages, grouped by one more column than status. */
async function directCounts(accountId: number, channel: string, by: 'config' | 'campaign' | 'day' | 'none'): Promise<Counts> {
  const key = {
    config: 'coalesce(config_id, 0)',
    campaign: 'coalesce(campaign_id, 0)',
    day: `(created_at + (${ZONE_OFFSET_MS})) / 86400000`,
    none: 'channel',
  }[by];
  const result = await sql<{ k: string | number; status: string; n: string | number }>`
    select ${sql.raw(key)} as k, status, count(*) as n from messages
    where account_id = ${accountId} and channel = ${channel}
    group by ${sql.raw(key)}, status`.execute(t.database.db);
  const counts: Counts = {};
  for (const row of result.rows) {
    const k =
      by === 'day' ? new Date(Number(row.k) * 86_400_000).toISOString().slice(0, 10) : by === 'none' ? 'all' : String(row.k);
    counts[k] = { ...counts[k], [row.status]: Number(row.n) };
  }
  return counts;
}

/** Both rollups of every account, the hourly one summed per UTC day, as bucket → count (zero buckets left out). */
async function rollupsByUtcDay(): Promise<{ hourly: Record<string, number>; daily: Record<string, number> }> {
  const key = 'account_id, channel, config_id, campaign_id, template_id, status';
  const read = async (statement: ReturnType<typeof sql>) => {
    const { rows } = await sql<Record<string, string | number>>`${statement}`.execute(t.database.db);
    return Object.fromEntries(
      rows
        .filter((row) => Number(row.n) !== 0)
        .map((row) => [
          [row.account_id, row.day, row.channel, row.config_id, row.campaign_id, row.template_id, row.status].join('|'),
          Number(row.n),
        ]),
    );
  };
  return {
    hourly: await read(
      sql`select ${sql.raw(key)}, hour / 24 as day, sum(count) as n from message_rollup group by ${sql.raw(key)}, hour / 24`,
    ),
    daily: await read(sql`select ${sql.raw(key)}, day, count as n from message_rollup_daily`),
  };
}

describe('reports agree with the ledger', () => {
  it('after a mixed campaign with failover, refusals, opens, SMS receipts and API messages, and an account deletion', {
    timeout: 120_000,
  }, async () => {
    const user = await signUp(t.app);
    const headers = { 'x-token': user.token };
    const accountId = await accountIdOf(t, user.email);
    const smtp = (port: number) => ({ host: '127.0.0.1', port, security: 'none', senderEmail: 'news@herald.test' });
    const dead = await post(headers, '/api/data/provider-configurations', { name: 'Dead SMTP', type: 'smtp', settings: smtp(1) });
    const live = await post(headers, '/api/data/provider-configurations', {
      name: 'Live SMTP',
      type: 'smtp',
      settings: smtp(sink.port),
    });
    const group = await post(headers, '/api/provider-configurations/groups', {
      name: 'Failover',
      category: 'EMAIL',
      configs: [
        { providerConfigId: dead.id, priority: 1 },
        { providerConfigId: live.id, priority: 2 },
      ],
    });
    const sandboxSms = await post(headers, '/api/data/provider-configurations', {
      name: 'Receipts',
      type: 'sandbox-sms',
      settings: { receiptDelaySeconds: 1, deliveredShare: 50 },
    });
    const news = await post(headers, '/api/data/template-categories', { name: 'News' });
    const emailTemplate = await post(headers, '/api/data/templates', {
      name: `news-${accountId}`,
      channel: 'EMAIL',
      categoryId: news.id,
      subject: 'News',
      html: '<p>News</p>',
    });
    const smsTemplate = await post(headers, '/api/data/templates', { name: `sms-${accountId}`, channel: 'SMS', smsText: 'Hi' });

    const emailList = await listWith(accountId, [
      ...Array.from({ length: 24 }, (_, i) => ({ email: `reader${i}@example.com` })),
      ...Array.from({ length: 6 }, (_, i) => ({ email: `refuse-${i}@example.com` })),
    ]);
    const smsList = await listWith(
      accountId,
      Array.from({ length: 20 }, (_, i) => ({ phone: `+38050${String(3000000 + i)}` })),
    );
    const dispatcher = new Dispatcher({
      db: t.database.db,
      dialect: t.database.dialect,
      pool: t.app.channels,
      content: new CampaignContent(t.database.db, t.app.tracking),
      owner: 'stats-test',
    });
    const emailCampaign = await post(headers, '/api/data/campaigns', {
      name: 'Mixed e-mail',
      channel: 'EMAIL',
      listId: emailList,
      templateName: emailTemplate.name,
      groupId: group.id,
    });
    await runCampaign(dispatcher, headers, emailCampaign.id);
    const smsCampaign = await post(headers, '/api/data/campaigns', {
      name: 'SMS with receipts',
      channel: 'SMS',
      listId: smsList,
      templateName: smsTemplate.name,
      configId: sandboxSms.id,
    });
    await runCampaign(dispatcher, headers, smsCampaign.id);
    await insertMessages(
      t.database.db,
      ['api1@example.com', 'api2@example.com'].map((recipient) => ({
        accountId,
        campaignId: null,
        lane: 0,
        channel: 'EMAIL',
        recipient,
        routeConfigId: live.id,
        payload: JSON.stringify({ subject: 'API', text: 'API' }),
      })),
    );
    for (let round = 0; round < 20; round++) if ((await dispatcher.runOnce()) === 0) break;
    // Three readers open the e-mail. (Receipts come a second after sending, once the sent status is surely written.)
    const opened = await t.database.db
      .selectFrom('messages')
      .select('id')
      .where('campaign_id', '=', emailCampaign.id)
      .where('status', '=', 'sent')
      .limit(3)
      .execute();
    for (const row of opened) {
      const pixel = t.app.tracking.openUrl(Number(row.id)).replace('http://herald.test', '');
      await t.app.inject({ method: 'GET', url: pixel });
    }
    await until(async () => {
      const waiting = await t.database.db
        .selectFrom('messages')
        .select('id')
        .where('campaign_id', '=', smsCampaign.id)
        .where('status', '=', 'sent')
        .executeTakeFirst();
      return waiting === undefined;
    }, 'the sandbox receipts');
    await dispatcher.stop();

    const email = await directCounts(accountId, 'EMAIL', 'none');
    expect(email.all).toMatchObject({ sent: 21 + 2, failed: 6, read: 3 });
    const sms = await directCounts(accountId, 'SMS', 'none');
    expect((sms.all!.delivered ?? 0) + (sms.all!.undelivered ?? 0)).toBe(20);
    // Every accepted e-mail went through the live config after the dead one refused the connection.
    expect(Object.keys(await directCounts(accountId, 'EMAIL', 'config')).sort()).toEqual([String(live.id)]);

    for (const [channel, route] of [
      ['EMAIL', 'email'],
      ['SMS', 'sms'],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url: `/api/data/statistics/${route}/reports?dayCount=3`, headers });
      expect(res.statusCode).toBe(200);
      const report = res.json();
      expect(report.counts).toEqual((await directCounts(accountId, channel, 'none')).all);
      const byDay = await directCounts(accountId, channel, 'day');
      expect(
        Object.fromEntries(
          report.days
            .filter((day: { total: number }) => day.total > 0)
            .map((day: { date: string; counts: object }) => [day.date, day.counts]),
        ),
      ).toEqual(byDay);
      expect(report.days).toHaveLength(3);
      const asMap = (entries: { id: number; counts: object }[]) =>
        Object.fromEntries(entries.map((entry) => [String(entry.id), entry.counts]));
      expect(asMap(report.configs)).toEqual(await directCounts(accountId, channel, 'config'));
      expect(asMap(report.campaigns)).toEqual(await directCounts(accountId, channel, 'campaign'));
    }

    // The News category holds only the e-mail campaign's template: the API messages (no template) drop out.
    const category = (
      await t.app.inject({ method: 'GET', url: `/api/data/statistics/email/reports?category=${news.id}`, headers })
    ).json();
    const campaignOnly = (await directCounts(accountId, 'EMAIL', 'campaign'))[String(emailCampaign.id)];
    expect(category.counts).toEqual(campaignOnly);
    expect(category.deliveryRate).toBe(3 / 24);
    expect(category.readRate).toBe(1);

    const dashboard = (await t.app.inject({ method: 'GET', url: '/api/data/dashboard', headers })).json();
    expect(dashboard.week).toBe(32 + 20);
    expect(dashboard.days).toHaveLength(7);

    const afterRun = await rollupsByUtcDay();
    expect(Object.keys(afterRun.daily).some((bucket) => bucket.startsWith(`${accountId}|`))).toBe(true);
    expect(afterRun.daily).toEqual(afterRun.hourly);
    // A bystander keeps its rows while the account's go from both rollups.
    const bystander = await signUp(t.app);
    const bystanderId = await accountIdOf(t, bystander.email);
    await insertMessages(t.database.db, [
      { accountId: bystanderId, campaignId: null, lane: 0, channel: 'SMS', recipient: '+380503999999', payload: '{}' },
    ]);
    const deleted = await t.app.inject({
      method: 'POST',
      url: '/api/data/users/delete-account',
      headers,
      payload: { confirmation: user.email },
    });
    expect(deleted.statusCode).toBe(200);
    const afterDeletion = await rollupsByUtcDay();
    expect(Object.keys(afterDeletion.daily).filter((bucket) => bucket.startsWith(`${accountId}|`))).toEqual([]);
    expect(Object.keys(afterDeletion.daily).some((bucket) => bucket.startsWith(`${bystanderId}|`))).toBe(true);
    expect(afterDeletion.daily).toEqual(afterDeletion.hourly);
  });
});
