/**
 * The unread policy: once a campaign has been finished for its window, its e-mail that was sent or delivered but
 * never opened becomes unread; opened e-mail stays read, an open afterwards still counts, and the rollup agrees.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CampaignContent } from '../../src/campaigns/content.js';
import { Dispatcher } from '../../src/engine/dispatcher.js';
import { accountIdOf, rollupCounts, statusCounts } from '../engine/helpers.js';
import { createTestApp, signUp, type TestApp } from '../helpers/app.js';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink.js';

const HOUR_MS = 3_600_000;
let t: TestApp;
let sink: SmtpSink;

beforeAll(async () => {
  t = await createTestApp();
  sink = await startSmtpSink();
});
afterAll(async () => {
  await t.close();
  await sink.close();
});

async function statusOf(id: number): Promise<string> {
  const row = await t.database.db.selectFrom('messages').select('status').where('id', '=', id).executeTakeFirstOrThrow();
  return row.status;
}

describe('unread policy', () => {
  it('marks unopened e-mail unread after the window, keeps opened e-mail read, and still takes a late open', async () => {
    const user = await signUp(t.app);
    const headers = { 'x-token': user.token };
    const accountId = await accountIdOf(t, user.email);
    const config = await t.app.inject({
      method: 'POST',
      url: '/api/data/provider-configurations',
      headers,
      payload: {
        name: 'Sink',
        type: 'smtp',
        settings: { host: '127.0.0.1', port: sink.port, security: 'none', senderEmail: 'news@herald.test' },
      },
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/data/templates',
      headers,
      payload: { name: `unread-${accountId}`, channel: 'EMAIL', subject: 'Hi', html: '<p>Hello {{ contact.name }}</p>' },
    });
    const now = Date.now();
    const list = await t.database.db
      .insertInto('contact_lists')
      .values({ account_id: accountId, name: 'Readers', created_at: now, updated_at: now } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.database.db
      .insertInto('contacts')
      .values(
        ['ann', 'bob', 'eve'].map((name) => ({
          account_id: accountId,
          list_id: Number(list.id),
          email: `${name}-${accountId}@example.com`,
          name,
          created_at: now,
          updated_at: now,
        })) as never,
      )
      .execute();
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/data/campaigns',
      headers,
      payload: {
        name: 'Newsletter',
        channel: 'EMAIL',
        listId: Number(list.id),
        templateName: `unread-${accountId}`,
        configId: config.json().id,
        unreadAfterHours: 24,
      },
    });
    expect(created.json().unreadAfterHours).toBe(24);
    const campaignId = created.json().id as number;
    await t.app.inject({ method: 'POST', url: `/api/data/campaigns/${campaignId}/start`, headers, payload: {} });
    const dispatcher = new Dispatcher({
      db: t.database.db,
      dialect: t.database.dialect,
      pool: t.app.channels,
      content: new CampaignContent(t.database.db, t.app.tracking),
      owner: 'unread-test',
    });
    for (let round = 0; round < 20; round++) {
      await t.app.campaigns.tick();
      await dispatcher.runOnce();
    }
    const campaign = await t.database.db
      .selectFrom('campaigns')
      .select(['state', 'finished_at'])
      .where('id', '=', campaignId)
      .executeTakeFirstOrThrow();
    expect(campaign.state).toBe('sent');
    const [ann, bob, eve] = await t.database.db
      .selectFrom('messages')
      .select('id')
      .where('campaign_id', '=', campaignId)
      .orderBy('id')
      .execute();
    const open = (id: number) =>
      t.app.inject({ method: 'GET', url: t.app.tracking.openUrl(id).replace(/^https?:\/\/[^/]+/, '') });
    await open(Number(ann!.id));
    expect(await statusOf(Number(ann!.id))).toBe('read');

    // Within the window nothing changes.
    await t.app.campaigns.tick(Number(campaign.finished_at) + 23 * HOUR_MS);
    expect(await statusCounts(t, accountId)).toEqual({ read: 1, sent: 2 });

    await t.app.campaigns.tick(Number(campaign.finished_at) + 25 * HOUR_MS);
    expect(await statusCounts(t, accountId)).toEqual({ read: 1, unread: 2 });
    expect(await rollupCounts(t, accountId)).toEqual({ read: 1, unread: 2 });
    const history = await t.database.db
      .selectFrom('message_events')
      .select(['status', 'detail'])
      .where('message_id', '=', Number(bob!.id))
      .execute();
    expect(history.map((event) => event.status)).toEqual(['sent', 'unread']);
    expect(history[1]!.detail).toBe('not opened within 24 h after the campaign finished');

    // A late open still counts; the campaign is marked once.
    await open(Number(eve!.id));
    expect(await statusOf(Number(eve!.id))).toBe('read');
    await t.app.campaigns.tick(Number(campaign.finished_at) + 26 * HOUR_MS);
    const marked = await t.database.db
      .selectFrom('campaigns')
      .select('unread_marked_at')
      .where('id', '=', campaignId)
      .executeTakeFirstOrThrow();
    expect(marked.unread_marked_at).not.toBeNull();
    expect(await rollupCounts(t, accountId)).toEqual({ read: 2, unread: 1 });
    expect(await statusCounts(t, accountId)).toEqual({ read: 2, unread: 1 });
  });

  it('refuses an unread window out of range', async () => {
    const user = await signUp(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/data/campaigns',
      headers: { 'x-token': user.token },
      payload: { name: 'x', channel: 'EMAIL', listId: 1, templateName: 'x', unreadAfterHours: 0 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[0].field).toMatch(/unreadAfterHours/);
  });
});
