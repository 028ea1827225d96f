import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyBounce, parseBounce, startBounceListener } from '../../src/campaigns/bounces.js';
import { CampaignContent } from '../../src/campaigns/content.js';
import { Dispatcher } from '../../src/engine/dispatcher.js';
import { accountIdOf } from '../engine/helpers.js';
import { createTestApp, signUp, type TestApp } from '../helpers/app.js';
import { decodedText } from '../helpers/mime.js';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink.js';

let t: TestApp;
let sink: SmtpSink;
let account: { headers: { 'x-token': string }; accountId: number };
let campaignMessages: { id: number; recipient: string; contact_id: number | null }[];
let raw: string;

async function runCampaign(listId: number, templateName: string, configId: number): Promise<number> {
  const campaign = (
    await t.app.inject({
      method: 'POST',
      url: '/api/data/campaigns',
      headers: account.headers,
      payload: { name: 'Tracked', channel: 'EMAIL', listId, templateName, configId },
    })
  ).json();
  await t.app.inject({ method: 'POST', url: `/api/data/campaigns/${campaign.id}/start`, headers: account.headers, payload: {} });
  const dispatcher = new Dispatcher({
    db: t.database.db,
    dialect: t.database.dialect,
    pool: t.app.channels,
    content: new CampaignContent(t.database.db, t.app.tracking),
    owner: 'tracking-test',
  });
  for (let round = 0; round < 20; round++) {
    await t.app.campaigns.tick();
    if ((await dispatcher.runOnce()) === 0 && round > 1) break;
  }
  return campaign.id;
}

beforeAll(async () => {
  t = await createTestApp({ seed: false });
  sink = await startSmtpSink();
  const user = await signUp(t.app);
  account = { headers: { 'x-token': user.token }, accountId: await accountIdOf(t, user.email) };
  await t.app.inject({
    method: 'PUT',
    url: '/api/data/provider-configurations/bounce-address',
    headers: account.headers,
    payload: { address: 'bounces@herald.test' },
  });
  const config = await t.app.inject({
    method: 'POST',
    url: '/api/data/provider-configurations',
    headers: account.headers,
    payload: {
      name: 'Sink',
      type: 'smtp',
      settings: { host: '127.0.0.1', port: sink.port, security: 'none', senderEmail: 'news@herald.test' },
    },
  });
  const now = Date.now();
  const list = await t.database.db
    .insertInto('contact_lists')
    .values({ account_id: account.accountId, name: 'Tracked list', created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await t.database.db
    .insertInto('contacts')
    .values(
      ['ann@example.com', 'bob@example.com', 'cid@example.com'].map((email) => ({
        account_id: account.accountId,
        list_id: Number(list.id),
        email,
        phone: null,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
  await t.database.db
    .updateTable('contact_lists')
    .set({ total_count: 3, email_count: 3 })
    .where('id', '=', Number(list.id))
    .execute();
  await t.app.inject({
    method: 'POST',
    url: '/api/data/templates',
    headers: account.headers,
    payload: {
      name: 'tracked',
      channel: 'EMAIL',
      subject: 'News',
      html: '<html><body><p>Read <a href="https://example.org/post?a=1&amp;b=2">the post</a></p><p><a href="{{ unsubscribe_url }}">Unsubscribe</a></p></body></html>',
    },
  });
  const campaignId = await runCampaign(Number(list.id), 'tracked', config.json().id);
  campaignMessages = (
    await t.database.db
      .selectFrom('messages')
      .select(['id', 'recipient', 'contact_id'])
      .where('campaign_id', '=', campaignId)
      .orderBy('id')
      .execute()
  ).map((row) => ({
    id: Number(row.id),
    recipient: row.recipient,
    contact_id: row.contact_id === null ? null : Number(row.contact_id),
  }));
  raw = sink.messages.find((m) => m.rcptTo[0]?.address === 'ann@example.com')!.raw.toString();
});
afterAll(async () => {
  await t.close();
  await sink.close();
});

const statusOf = async (id: number) =>
  (await t.database.db.selectFrom('messages').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

describe('campaign e-mail tracking', () => {
  it('carries the one-click unsubscribe headers and the bounce address as envelope sender', () => {
    expect(raw).toMatch(/^List-Unsubscribe: <http:\/\/herald\.test\/t\/u\/\d+\/[\w-]+>/m);
    expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
    expect(sink.messages.find((m) => m.rcptTo[0]?.address === 'ann@example.com')!.mailFrom.address).toBe('bounces@herald.test');
  });

  it("prints the recipient's own unsubscribe link where the template asks, not wrapped as a click", async () => {
    const ann = campaignMessages[0]!;
    const html = decodedText(raw);
    expect(html).toContain(`<a href="${t.app.tracking.unsubscribeUrl(ann.id)}">Unsubscribe</a>`);
    // Previews have no recipient to unsubscribe: the link goes nowhere.
    const preview = await t.app.inject({
      method: 'POST',
      url: '/api/data/templates/preview',
      headers: account.headers,
      payload: { channel: 'SMS', smsText: 'Stop: {{ unsubscribe_url }}' },
    });
    expect(preview.json().smsText).toBe('Stop: #unsubscribe');
    const misspelt = await t.app.inject({
      method: 'POST',
      url: '/api/data/templates',
      headers: account.headers,
      payload: { name: 'misspelt', channel: 'SMS', smsText: 'Stop: {{ unsubscribe_url.link }}' },
    });
    expect(misspelt.statusCode).toBe(400);
    expect(misspelt.json().fields[0]).toMatchObject({ field: 'smsText', key: 'templates.unknownVariable' });
  });

  it('marks a message read from its signed open pixel, and ignores a forged one', async () => {
    const [ann, bob] = campaignMessages;
    const pixel = t.app.tracking.openUrl(ann!.id).replace('http://herald.test', '');
    const res = await t.app.inject({ method: 'GET', url: pixel });
    expect(res.headers['content-type']).toBe('image/gif');
    expect(await statusOf(ann!.id)).toBe('read');
    await t.app.inject({ method: 'GET', url: `/t/o/${bob!.id}/forgedsignature000000` });
    expect(await statusOf(bob!.id)).toBe('sent');
  });

  it('redirects a signed click to its target and refuses a changed target', async () => {
    const bob = campaignMessages[1]!;
    const link = /href="([^"]+)"/.exec(decodedText(raw))?.[1]?.replaceAll('&amp;', '&');
    expect(link).toContain('/t/c/');
    const own = t.app.tracking.clickUrl(bob.id, 'https://example.org/post?a=1&b=2').replace('http://herald.test', '');
    const res = await t.app.inject({ method: 'GET', url: own });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('https://example.org/post?a=1&b=2');
    expect(await statusOf(bob.id)).toBe('read');
    const tampered = own.replace(
      encodeURIComponent('https://example.org/post?a=1&b=2'),
      encodeURIComponent('https://evil.example'),
    );
    const refused = await t.app.inject({ method: 'GET', url: tampered });
    expect(refused.statusCode).toBe(404);
    // A page about a link, not the unsubscribe page.
    expect(refused.body).toContain('<title>Link</title>');
    expect(refused.body).toContain('This link is not valid.');
    const ann = campaignMessages[0]!;
    const otherMessage = own.replace(`/t/c/${bob.id}/`, `/t/c/${ann.id}/`);
    expect((await t.app.inject({ method: 'GET', url: otherMessage })).statusCode).toBe(404);
  });

  it('unsubscribes the contact with a one-click POST, after a GET that only asks', async () => {
    const ann = campaignMessages[0]!;
    const path = t.app.tracking.unsubscribeUrl(ann.id).replace('http://herald.test', '');
    const ask = await t.app.inject({ method: 'GET', url: path, headers: { 'accept-language': 'ru' } });
    expect(ask.body).toContain('Отписаться');
    const contactStatus = async () =>
      (await t.database.db.selectFrom('contacts').select('status').where('id', '=', ann.contact_id!).executeTakeFirstOrThrow())
        .status;
    expect(await contactStatus()).toBe('active');
    const done = await t.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(done.statusCode).toBe(200);
    expect(await contactStatus()).toBe('unsubscribed');
    const list = await t.database.db
      .selectFrom('contact_lists')
      .select('unsubscribed_count')
      .where('account_id', '=', account.accountId)
      .executeTakeFirstOrThrow();
    expect(Number(list.unsubscribed_count)).toBe(1);
  });

  it('turns a DSN into undelivered and a bounced contact, received over SMTP', async () => {
    const cid = campaignMessages[2]!;
    const header = t.app.tracking.messageHeader(cid.id);
    const dsn = [
      'Reporting-MTA: dns; mx.example.com',
      '',
      'Final-Recipient: rfc822; cid@example.com',
      'Action: failed',
      'Status: 5.1.1',
      'Diagnostic-Code: smtp; 550 5.1.1 user unknown',
      '',
      `X-Herald-Message: ${header}`,
    ].join('\r\n');
    expect(parseBounce(dsn)).toMatchObject({ messageId: cid.id, status: '5.1.1', diagnostic: 'smtp; 550 5.1.1 user unknown' });
    expect(await applyBounce(t.database.db, t.app.tracking, { ...parseBounce(dsn)!, signature: 'forged' })).toBe(false);

    const port = 25_300 + Math.floor(Math.random() * 500);
    const bounced = startBounceListener({ db: t.database.db, tracking: t.app.tracking, port, host: '127.0.0.1' });
    try {
      const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
      await transport.sendMail({
        from: 'MAILER-DAEMON@example.com',
        to: 'bounces@herald.test',
        subject: 'Undelivered Mail',
        text: dsn,
      });
      for (let i = 0; i < 40 && (await statusOf(cid.id)) !== 'undelivered'; i++) await new Promise((r) => setTimeout(r, 25));
    } finally {
      await bounced.close();
    }
    expect(await statusOf(cid.id)).toBe('undelivered');
    const contact = await t.database.db
      .selectFrom('contacts')
      .select('status')
      .where('id', '=', cid.contact_id!)
      .executeTakeFirstOrThrow();
    expect(contact.status).toBe('bounced');
  });
});
