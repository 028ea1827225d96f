/**
 * Fallback to the other channel, end to end: an e-mail campaign whose SMTP server refuses every recipient sends
 * to the contacts' phones through a local SMPP server instead, recorded as `sent via alternative channel`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CampaignContent } from '../../src/campaigns/content.js';
import { Dispatcher } from '../../src/engine/dispatcher.js';
import { createTestApp, signUp, type TestApp } from '../helpers/app.js';
import { type SmppTestServer, startSmppServer } from '../helpers/smpp-server.js';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink.js';
import { accountIdOf, rollupCounts, statusCounts } from './helpers.js';

let t: TestApp;
let refusing: SmtpSink;
let smsc: SmppTestServer;

beforeAll(async () => {
  t = await createTestApp();
  refusing = await startSmtpSink({ rejectRecipient: () => ({ code: 550, text: 'mailbox unavailable' }) });
  smsc = await startSmppServer({ systemId: 'herald', password: 'secret' });
});
afterAll(async () => {
  await t.close();
  await refusing.close();
  await smsc.close();
});

interface Account {
  accountId: number;
  headers: { 'x-token': string };
}

async function newAccount(): Promise<Account> {
  const user = await signUp(t.app);
  return { accountId: await accountIdOf(t, user.email), headers: { 'x-token': user.token } };
}

async function post(account: Account, url: string, payload: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url, headers: account.headers, payload });
}

async function created(account: Account, url: string, payload: Record<string, unknown>): Promise<number> {
  const res = await post(account, url, payload);
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json().id;
}

async function listWith(account: Account, contacts: { email: string; phone?: string; name: string }[]): Promise<number> {
  const now = Date.now();
  const list = await t.database.db
    .insertInto('contact_lists')
    .values({ account_id: account.accountId, name: `List ${now}`, created_at: now, updated_at: now } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  await t.database.db
    .insertInto('contacts')
    .values(
      contacts.map((contact) => ({
        account_id: account.accountId,
        list_id: Number(list.id),
        email: contact.email,
        phone: contact.phone ?? null,
        name: contact.name,
        created_at: now,
        updated_at: now,
      })) as never,
    )
    .execute();
  return Number(list.id);
}

/** An account with a refusing SMTP config, a live SMPP config, an e-mail and an SMS template, and a list. */
async function setUp() {
  const account = await newAccount();
  const smtpId = await created(account, '/api/data/provider-configurations', {
    name: 'Refusing SMTP',
    type: 'smtp',
    settings: { host: '127.0.0.1', port: refusing.port, security: 'none', senderEmail: 'news@herald.test' },
  });
  const smppId = await created(account, '/api/data/provider-configurations', {
    name: 'SMSC',
    type: 'smpp',
    settings: { host: '127.0.0.1', port: smsc.port, systemId: 'herald', password: 'secret', sender: 'Herald' },
  });
  await created(account, '/api/data/templates', {
    name: `news-${account.accountId}`,
    channel: 'EMAIL',
    subject: 'News',
    html: '<p>Hello {{ contact.name }}</p>',
  });
  await created(account, '/api/data/templates', {
    name: `news-sms-${account.accountId}`,
    channel: 'SMS',
    smsText: 'Hello {{ contact.name }}, our news did not reach your inbox.',
  });
  const listId = await listWith(account, [
    { email: `phone-${account.accountId}@example.com`, phone: '+380501112233', name: 'Olena' },
    { email: `nophone-${account.accountId}@example.com`, name: 'Taras' },
  ]);
  return { account, smtpId, smppId, listId };
}

/** Runs the campaign until it ends; answers its final state. */
async function runToEnd(campaignId: number): Promise<string> {
  const dispatcher = new Dispatcher({
    db: t.database.db,
    dialect: t.database.dialect,
    pool: t.app.channels,
    content: new CampaignContent(t.database.db, t.app.tracking),
    owner: 'fallback-test',
  });
  for (let round = 0; round < 50; round++) {
    await t.app.campaigns.tick();
    const claimed = await dispatcher.runOnce();
    const row = await t.database.db
      .selectFrom('campaigns')
      .select('state')
      .where('id', '=', campaignId)
      .executeTakeFirstOrThrow();
    if (claimed === 0 && (row.state === 'sent' || row.state === 'failed')) return row.state;
  }
  throw new Error('the campaign did not finish');
}

/** Rollup rows per channel, config and status: they must match a direct count of the messages at every moment. */
async function rollupByChannel(accountId: number) {
  const rows = await t.database.db
    .selectFrom('message_rollup')
    .select(['channel', 'config_id', 'status', (eb) => eb.fn.sum<number>('count').as('n')])
    .where('account_id', '=', accountId)
    .groupBy(['channel', 'config_id', 'status'])
    .execute();
  return rows
    .filter((row) => Number(row.n) !== 0)
    .map((row) => `${row.channel} ${Number(row.config_id)} ${row.status} ${Number(row.n)}`)
    .sort();
}

async function messagesByChannel(accountId: number) {
  const rows = await t.database.db
    .selectFrom('messages')
    .select(['channel', 'config_id', 'status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('account_id', '=', accountId)
    .groupBy(['channel', 'config_id', 'status'])
    .execute();
  return rows.map((row) => `${row.channel} ${Number(row.config_id ?? 0)} ${row.status} ${Number(row.n)}`).sort();
}

describe('fallback to the other channel', () => {
  it('sends by SMS when SMTP refuses, records sent via alternative channel, and keeps the rollup consistent', async () => {
    const { account, smtpId, smppId, listId } = await setUp();
    const campaignId = await created(account, '/api/data/campaigns', {
      name: 'With fallback',
      channel: 'EMAIL',
      listId,
      templateName: `news-${account.accountId}`,
      configId: smtpId,
      fallback: { templateName: `news-sms-${account.accountId}`, configId: smppId },
    });
    const campaign = await t.app.inject({ method: 'GET', url: `/api/data/campaigns/${campaignId}`, headers: account.headers });
    expect(campaign.json().fallback).toEqual({
      channel: 'SMS',
      templateId: expect.any(Number),
      templateName: `news-sms-${account.accountId}`,
      groupId: null,
      configId: smppId,
    });
    const submitsBefore = smsc.submits.length;
    expect((await post(account, `/api/data/campaigns/${campaignId}/start`, {})).statusCode).toBe(200);
    expect(await runToEnd(campaignId)).toBe('sent');

    const submits = smsc.submits.slice(submitsBefore);
    expect(submits.map((submit) => String(submit.pdu.destination_addr))).toEqual(['380501112233']);
    expect(String(submits[0]!.pdu.short_message.message)).toBe('Hello Olena, our news did not reach your inbox.');

    const rows = await t.database.db
      .selectFrom('messages')
      .selectAll()
      .where('campaign_id', '=', campaignId)
      .orderBy('id')
      .execute();
    expect(rows.map((row) => [row.status, row.channel, row.recipient, Number(row.config_id)])).toEqual([
      ['sent_alternative', 'SMS', '+380501112233', smppId],
      ['failed', 'EMAIL', `nophone-${account.accountId}@example.com`, smtpId],
    ]);
    expect(rows[0]!.detail).toMatch(/550/);
    expect(rows[0]!.provider_message_id).toBe(submits[0]!.messageId);
    const history = await t.database.db
      .selectFrom('message_events')
      .select(['status', 'config_id'])
      .where('message_id', '=', rows[0]!.id)
      .execute();
    expect(history.map((event) => [event.status, Number(event.config_id)])).toEqual([['sent_alternative', smppId]]);

    const progress = await t.app.inject({ method: 'GET', url: `/api/data/campaigns/${campaignId}`, headers: account.headers });
    expect(progress.json()).toMatchObject({ state: 'sent', total: 2, counts: { sent_alternative: 1, failed: 1 } });
    expect(await rollupCounts(t, account.accountId)).toEqual(await statusCounts(t, account.accountId));
    expect(await rollupByChannel(account.accountId)).toEqual(await messagesByChannel(account.accountId));
    expect(await rollupByChannel(account.accountId)).toEqual([`EMAIL ${smtpId} failed 1`, `SMS ${smppId} sent_alternative 1`]);

    // The SMS's receipt moves it on, under the channel it went through.
    await smsc.sendReceipt({ messageId: submits[0]!.messageId!, stat: 'DELIVRD' });
    for (let i = 0; i < 80; i++) {
      const row = await t.database.db
        .selectFrom('messages')
        .select('status')
        .where('id', '=', rows[0]!.id)
        .executeTakeFirstOrThrow();
      if (row.status === 'delivered') break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(await rollupByChannel(account.accountId)).toEqual([`EMAIL ${smtpId} failed 1`, `SMS ${smppId} delivered 1`]);
    expect(await rollupByChannel(account.accountId)).toEqual(await messagesByChannel(account.accountId));
  });

  it('leaves the refusal in place for a campaign without a fallback', async () => {
    const { account, smtpId, listId } = await setUp();
    const submitsBefore = smsc.submits.length;
    const campaignId = await created(account, '/api/data/campaigns', {
      name: 'No fallback',
      channel: 'EMAIL',
      listId,
      templateName: `news-${account.accountId}`,
      configId: smtpId,
    });
    await post(account, `/api/data/campaigns/${campaignId}/start`, {});
    // None of its messages reached a provider: the campaign ends failed.
    expect(await runToEnd(campaignId)).toBe('failed');
    expect(await statusCounts(t, account.accountId)).toEqual({ failed: 2 });
    expect(await rollupCounts(t, account.accountId)).toEqual({ failed: 2 });
    expect(smsc.submits.length).toBe(submitsBefore);
  });

  it('refuses a fallback template of the campaign’s own channel and a fallback route without an active config', async () => {
    const { account, smtpId, listId } = await setUp();
    const sameChannel = await post(account, '/api/data/campaigns', {
      name: 'Bad fallback',
      channel: 'EMAIL',
      listId,
      templateName: `news-${account.accountId}`,
      configId: smtpId,
      fallback: { templateName: `news-${account.accountId}`, configId: smtpId },
    });
    expect(sameChannel.statusCode).toBe(400);
    expect(sameChannel.json().fields.map((field: { field: string; key: string }) => [field.field, field.key])).toEqual([
      ['fallback.templateName', 'campaigns.fallbackChannel'],
      ['fallback.configId', 'campaigns.noActiveConfig'],
    ]);
    const unknown = await post(account, '/api/data/campaigns', {
      name: 'Unknown fallback',
      channel: 'EMAIL',
      listId,
      templateName: `news-${account.accountId}`,
      configId: smtpId,
      fallback: { templateName: 'no-such-template' },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().fields[0]).toMatchObject({ field: 'fallback.templateName', key: 'error.notFound' });
    const count = await t.database.db
      .selectFrom('campaigns')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', account.accountId)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });
});
