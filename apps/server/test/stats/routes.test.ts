/** The statistics API: log filters and paging, the capped count, history, CSV, bad input and other accounts' messages. */
import { LOG_COUNT_CAP } from '@herald/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertMessages } from '../../src/messages/ledger.js';
import { accountIdOf, dispatcherFor, drain, emailCampaign, emails } from '../engine/helpers.js';
import { createTestApp, signUp, type TestApp } from '../helpers/app.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ seed: true });
});
afterAll(async () => {
  await t.close();
});

interface Account {
  accountId: number;
  headers: { 'x-token': string };
}

async function newAccount(): Promise<Account> {
  const user = await signUp(t.app);
  return { accountId: await accountIdOf(t, user.email), headers: { 'x-token': user.token } };
}

function get(account: Account, url: string, language = 'en') {
  return t.app.inject({ method: 'GET', url, headers: { ...account.headers, 'accept-language': language } });
}

/** Today in time zone 001 (UTC−12), the zone sign-up gives these accounts. */
function today(): string {
  return new Date(Date.now() - 12 * 3_600_000).toISOString().slice(0, 10);
}

let owner: Account;
let other: Account;
let sentIds: number[];
let otherId: number;

describe('message log', () => {
  beforeAll(async () => {
    owner = await newAccount();
    other = await newAccount();
    // 25 e-mails go out through the seeded sandbox; 5 more wait unsent; 2 SMS stay unsent.
    sentIds = await insertMessages(
      t.database.db,
      emails(
        owner.accountId,
        Array.from({ length: 25 }, (_, i) => `sent${i}@example.com`),
      ),
    );
    await drain(dispatcherFor(t));
    await insertMessages(
      t.database.db,
      emails(
        owner.accountId,
        Array.from({ length: 5 }, (_, i) => `later${i}@example.com`),
        { nextAttemptAt: Date.now() + 3_600_000 },
      ),
    );
    await insertMessages(t.database.db, [
      {
        accountId: owner.accountId,
        campaignId: null,
        lane: 0,
        channel: 'SMS',
        recipient: '+380501112233',
        nextAttemptAt: Date.now() + 3_600_000,
      },
      {
        accountId: owner.accountId,
        campaignId: null,
        lane: 0,
        channel: 'SMS',
        recipient: '+380501112234',
        nextAttemptAt: Date.now() + 3_600_000,
      },
    ]);
    [otherId] = await insertMessages(
      t.database.db,
      emails(other.accountId, ['theirs@example.com'], { nextAttemptAt: Date.now() + 3_600_000 }),
    );
  });

  it('pages newest first, page 1 of size 10 by default, with the spec fields', async () => {
    const res = await get(owner, '/api/data/messages/email');
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page).toMatchObject({ total: 30, capped: false });
    expect(page.items).toHaveLength(10);
    expect(page.items[0].recipient).toMatch(/^later/);
    expect(page.items[0]).toMatchObject({ status: 'unsent', retries: 0, template: null, providerConfig: null });
    const last = (await get(owner, '/api/data/messages/email?page=3&size=10')).json();
    expect(last.items).toHaveLength(10);
    expect(last.items.every((item: { status: string }) => item.status === 'sent')).toBe(true);
    expect(last.items[0]).toMatchObject({
      providerConfig: expect.any(String),
      providerMessageId: expect.stringMatching(/^sandbox-/),
    });
    expect((await get(owner, '/api/data/messages/sms')).json().total).toBe(2);
  });

  it("gives Herald's own status details in the reader's language", async () => {
    const [id] = await insertMessages(
      t.database.db,
      emails(owner.accountId, ['waiting@example.com'], { nextAttemptAt: Date.now() + 3_600_000 }),
    );
    await t.database.db.updateTable('messages').set({ detail: 'day limit reached' }).where('id', '=', id!).execute();
    const page = (await get(owner, '/api/data/messages/email?recipient=waiting@example.com', 'uk')).json();
    expect(page.items[0].providerMessage).toBe('вичерпано денний ліміт');
    const english = (await get(owner, '/api/data/messages/email?recipient=waiting@example.com')).json();
    expect(english.items[0].providerMessage).toBe('day limit reached');
    await t.database.db.deleteFrom('messages').where('id', '=', id!).execute();
  });

  it('filters by status, recipient, date range, config and campaign', async () => {
    expect((await get(owner, '/api/data/messages/email?status=unsent')).json().total).toBe(5);
    const byRecipient = (await get(owner, '/api/data/messages/email?recipient=sent7@example.com')).json();
    expect(byRecipient.total).toBe(1);
    expect(byRecipient.items[0].id).toBe(sentIds[7]);
    // An address in any case, a number with spaces and dashes: the same recipients.
    expect((await get(owner, '/api/data/messages/email?recipient=%20Sent7@Example.COM')).json().total).toBe(1);
    expect((await get(owner, '/api/data/messages/sms?recipient=%2B380%2050%20111-22-33')).json().total).toBe(1);
    expect((await get(owner, '/api/data/messages/sms?recipient=380501112233')).json().total).toBe(1);
    const day = today();
    expect((await get(owner, `/api/data/messages/email?dateRange=${day}&dateRange=${day}`)).json().total).toBe(30);
    expect((await get(owner, '/api/data/messages/email?dateRange=2020-01-01&dateRange=2020-01-31')).json().total).toBe(0);
    const configId = (await get(owner, '/api/data/messages/email?status=sent')).json().items[0].configId;
    expect((await get(owner, `/api/data/messages/email?configId=${configId}`)).json().total).toBe(25);
    expect((await get(owner, '/api/data/messages/email?campaignId=999999')).json().total).toBe(0);
    expect((await get(owner, '/api/data/messages/email?status=sent&recipient=later1@example.com')).json().total).toBe(0);
  });

  it('gives each message its campaign’s state, so the log can say a cancelled campaign’s waiting ones never go', async () => {
    const account = await newAccount();
    const cancelled = await emailCampaign(t, account.accountId, 'cancelled');
    await insertMessages(
      t.database.db,
      emails(account.accountId, ['waiting@example.com'], { campaignId: cancelled, nextAttemptAt: Date.now() + 3_600_000 }),
    );
    await insertMessages(
      t.database.db,
      emails(account.accountId, ['api@example.com'], { nextAttemptAt: Date.now() + 3_600_000 }),
    );

    const items = (await get(account, '/api/data/messages/email')).json().items;
    expect(
      items.map((item: { recipient: string; campaignState: string | null }) => [item.recipient, item.campaignState]),
    ).toEqual([
      ['api@example.com', null],
      ['waiting@example.com', 'cancelled'],
    ]);
  });

  it('opens one message with its status history; another account’s message or the other channel is 404', async () => {
    const res = await get(owner, `/api/data/messages/email/${sentIds[0]}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().history.map((entry: { status: string }) => entry.status)).toEqual(['unsent', 'sent']);
    expect(res.json().history[1].providerConfig).toEqual(expect.any(String));
    expect((await get(owner, `/api/data/messages/email/${otherId}`)).statusCode).toBe(404);
    expect((await get(owner, `/api/data/messages/sms/${sentIds[0]}`)).statusCode).toBe(404);
    expect((await get(other, '/api/data/messages/email')).json().total).toBe(1);
  });

  it('stops counting at the cap and says so', async () => {
    const busy = await newAccount();
    const recipients = Array.from({ length: LOG_COUNT_CAP + 5 }, (_, i) => `bulk${i}@example.com`);
    await insertMessages(t.database.db, emails(busy.accountId, recipients, { nextAttemptAt: Date.now() + 3_600_000 }));
    const page = (await get(busy, '/api/data/messages/email?page=2&size=20')).json();
    expect(page).toMatchObject({ total: LOG_COUNT_CAP, capped: true });
    expect(page.items).toHaveLength(20);
    expect((await get(busy, '/api/data/statistics/email/reports')).json().total).toBe(LOG_COUNT_CAP + 5);
  }, 120_000);
});

describe('bad input', () => {
  it('names the field with a translated message and changes nothing', async () => {
    const account = await newAccount();
    const reversed = await get(account, '/api/data/statistics/email/reports?dateRange=2026-11-10&dateRange=2026-11-01', 'ru');
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().fields).toEqual([
      { field: 'dateRange', key: 'stats.rangeReversed', message: 'Конец периода раньше его начала.' },
    ]);
    const long = await get(account, '/api/data/messages/email?dateRange=2025-01-01&dateRange=2026-01-02');
    expect(long.statusCode).toBe(400);
    expect(long.json().fields[0]).toMatchObject({
      field: 'dateRange',
      key: 'stats.rangeTooLong',
      message: 'A report covers at most 366 days.',
    });
    const leapYear = await get(account, '/api/data/statistics/sms/reports?dateRange=2024-01-01&dateRange=2024-12-31');
    expect(leapYear.statusCode).toBe(200);
    expect(leapYear.json().days).toHaveLength(366);
    const days = await get(account, '/api/data/statistics/sms/reports?dayCount=367');
    expect(days.json().fields[0]).toMatchObject({ field: 'dayCount', key: 'stats.rangeTooLong' });
    const status = await get(account, '/api/data/messages/sms?status=lost', 'uk');
    expect(status.statusCode).toBe(400);
    expect(status.json().fields).toEqual([
      { field: 'status', key: 'stats.unknownStatus', message: 'Невідомий статус повідомлення: lost' },
    ]);
    const date = await get(account, '/api/data/messages/sms?dateRange=2026-02-30&dateRange=2026-03-01');
    expect(date.json().fields[0]).toMatchObject({ field: 'dateRange', key: 'validation.invalidValue' });
    const category = await get(account, '/api/data/statistics/email/reports?category=999999');
    expect(category.json().fields[0]).toMatchObject({ field: 'category', key: 'validation.notInList' });
    expect((await get(account, '/api/data/statistics/fax/reports')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/data/statistics/email/reports' })).statusCode).toBe(401);
  });
});

describe('reports', () => {
  it('default to the last 7 local days and export the same figures as CSV', async () => {
    const account = await newAccount();
    await insertMessages(
      t.database.db,
      emails(account.accountId, ['a@example.com', 'b@example.com', 'c@example.com'], { nextAttemptAt: Date.now() + 3_600_000 }),
    );
    const report = (await get(account, '/api/data/statistics/email/reports')).json();
    expect(report.days).toHaveLength(7);
    expect(report.to).toBe(today());
    expect(report.days[6]).toEqual({ date: today(), total: 3, counts: { unsent: 3 }, deliveryRate: null, readRate: null });
    expect(report).toMatchObject({ total: 3, deliveryRate: null, readRate: null });
    expect(report.configs).toEqual([{ id: 0, name: null, total: 3, counts: { unsent: 3 } }]);
    expect(report.campaigns).toEqual([{ id: 0, name: null, total: 3, counts: { unsent: 3 } }]);

    const csv = await get(account, '/api/data/statistics/email/reports.csv');
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toContain(`herald-email-${report.from}-${report.to}.csv`);
    const lines = csv.body.split('\r\n');
    expect(lines[0]).toBe(
      'section,key,name,total,unsent,processing,resending,sent,sent_alternative,delivered,undelivered,unread,read,failed,filtered,unknown',
    );
    expect(lines).toContain(`day,${today()},,3,3,0,0,0,0,0,0,0,0,0,0,0`);
    expect(lines).toHaveLength(1 + 7 + 1 + 1 + 1);

    const dashboard = (await get(account, '/api/data/dashboard')).json();
    expect(dashboard).toMatchObject({ today: 3, week: 3, runningCampaigns: 0, deliveryRate: null });
    expect(dashboard.days[6]).toEqual({ date: today(), email: 3, sms: 0, reached: 0 });
  });
});
