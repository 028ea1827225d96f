import { existsSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CampaignContent } from '../../src/campaigns/content.js';
import { Dispatcher } from '../../src/engine/dispatcher.js';
import { accountIdOf } from '../engine/helpers.js';
import { createTestApp, makeAdmin, signUp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: true });
});
afterAll(async () => t.close());

const form = { 'content-type': 'application/x-www-form-urlencoded' };

async function call(token: string, url: string, payload: unknown, language = 'en') {
  return t.app.inject({
    method: 'POST',
    url,
    headers: { 'x-token': token, 'accept-language': language },
    payload: payload as never,
  });
}

async function me(token: string) {
  return t.app.inject({ method: 'GET', url: '/api/data/users', headers: { 'x-token': token } });
}

describe('account settings', () => {
  it('sets a display name shown as the user name, and an empty one shows the e-mail again', async () => {
    const user = await signUp(t.app);
    expect((await call(user.token, '/api/data/users/change-name', { name: '  Olena K.  ' })).statusCode).toBe(200);
    expect((await me(user.token)).json()).toMatchObject({ username: user.email, name: 'Olena K.' });
    const long = await call(user.token, '/api/data/users/change-name', { name: 'x'.repeat(81) }, 'ru');
    expect(long.statusCode).toBe(400);
    expect(long.json().fields).toEqual([{ field: 'name', key: 'validation.tooLong', message: expect.stringContaining('80') }]);
    await call(user.token, '/api/data/users/change-name', { name: ' ' });
    expect((await me(user.token)).json().name).toBe(user.email);
  });

  it('changes the password only with the right current one and a strong new one, errors in the user language', async () => {
    const user = await signUp(t.app);
    const both = await call(
      user.token,
      '/api/data/users/change-password',
      { oldPassword: 'Wrong1234', newPassword: 'weak', confirmPassword: 'weak' },
      'ru',
    );
    expect(both.statusCode).toBe(400);
    expect(both.json().fields).toEqual([
      { field: 'oldPassword', key: 'validation.wrongPassword', message: 'Текущий пароль указан неверно' },
      { field: 'newPassword', key: 'validation.passwordTooShort', message: 'Пароль должен содержать не менее 8 символов' },
    ]);
    const weak = await call(
      user.token,
      '/api/data/users/change-password',
      { oldPassword: user.password, newPassword: 'alllowercase1', confirmPassword: 'alllowercase1' },
      'uk',
    );
    expect(weak.json().fields).toEqual([
      { field: 'newPassword', key: 'validation.passwordWeak', message: expect.stringMatching(/цифру/) },
    ]);
    const tooLong = await call(user.token, '/api/data/users/change-password', {
      oldPassword: user.password,
      newPassword: 'Abcdefgh1234567X',
    });
    expect(tooLong.json().fields[0]).toMatchObject({
      field: 'newPassword',
      message: 'Password cannot be longer than 15 characters',
    });
    // Nothing changed: the old password still logs in.
    const still = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: form,
      payload: `username=${encodeURIComponent(user.email)}&password=${user.password}`,
    });
    expect(still.statusCode).toBe(200);
    const ok = await call(user.token, '/api/data/users/change-password', {
      oldPassword: user.password,
      newPassword: 'Better123',
      confirmPassword: 'Better123',
    });
    expect(ok.statusCode).toBe(200);
    expect((await me(user.token)).statusCode).toBe(200);
  });

  it('changes time zone, avatar and language, refusing unknown values by field', async () => {
    const user = await signUp(t.app);
    expect((await call(user.token, '/api/data/users/change-timezone', { id: '045' })).statusCode).toBe(200);
    expect((await call(user.token, '/api/data/users/change-timezone', { id: '999' })).json().fields[0]).toMatchObject({
      field: 'id',
      key: 'validation.unknownTimeZone',
    });
    const avatar = await t.app.inject({
      method: 'POST',
      url: '/api/data/users/avatar',
      headers: { 'x-token': user.token, 'content-type': 'text/plain' },
      payload: 'avatar-3.svg',
    });
    expect(avatar.statusCode).toBe(200);
    expect((await call(user.token, '/api/data/users/change-language', { language: 'uk' })).statusCode).toBe(200);
    expect((await me(user.token)).json()).toMatchObject({ timeZone: { id: '045' }, avatar: 'avatar-3.svg', language: 'uk' });
  });

  it('keeps the SMTP bounce address, refusing a malformed one', async () => {
    const user = await signUp(t.app);
    const headers = { 'x-token': user.token };
    const url = '/api/data/provider-configurations/bounce-address';
    expect(
      (await t.app.inject({ method: 'PUT', url, headers, payload: { address: 'not-an-address' } })).json().fields[0],
    ).toMatchObject({
      field: 'address',
      key: 'validation.invalidEmail',
    });
    await t.app.inject({ method: 'PUT', url, headers, payload: { address: 'bounces@herald.test' } });
    expect((await t.app.inject({ method: 'GET', url, headers })).json()).toEqual({ address: 'bounces@herald.test' });
  });
});

/** Tables with an account_id column, read from the schema the same way an auditor would. */
async function accountTables(): Promise<string[]> {
  const { db, dialect } = t.database;
  const rows =
    dialect === 'postgres'
      ? await sql<{ name: string }>`select table_name as name from information_schema.columns
          where table_schema = current_schema() and column_name = 'account_id'`.execute(db)
      : await sql<{ name: string }>`select m.name as name from sqlite_master m, pragma_table_info(m.name) p
          where m.type = 'table' and p.name = 'account_id'`.execute(db);
  return rows.rows.map((row) => row.name);
}

async function rowsPerTable(accountId: number): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of await accountTables()) {
    const row = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)} where account_id = ${accountId}`.execute(
      t.database.db,
    );
    counts[table] = Number(row.rows[0]?.n ?? 0);
  }
  counts.accounts = Number(
    (await sql<{ n: number }>`select count(*) as n from accounts where id = ${accountId}`.execute(t.database.db)).rows[0]?.n,
  );
  return counts;
}

/** A 1×1 transparent PNG, for a feedback attachment. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

async function sendFeedback(token: string): Promise<void> {
  const form = new FormData();
  form.append('name', 'Ann');
  form.append('email', 'ann@example.com');
  form.append('desc', 'Where is the report?');
  form.append('file0', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'shot.png');
  const encoded = new Response(form);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/feedback',
    payload: Buffer.from(await encoded.arrayBuffer()),
    headers: { 'content-type': encoded.headers.get('content-type') ?? '', 'x-token': token },
  });
  expect(res.statusCode).toBe(200);
}

async function storedFiles(accountId: number): Promise<string[]> {
  const rows = await t.database.db
    .selectFrom('feedback_files')
    .select('stored_path')
    .where('account_id', '=', accountId)
    .execute();
  return rows.map((row) => path.join(t.config.dataDir, row.stored_path));
}

/** Gives an account data in most of its tables through the API: configs, balances, lists, a template, a sent campaign, hooks. */
async function populate(token: string, accountId: number): Promise<void> {
  const headers = { 'x-token': token };
  await sendFeedback(token);
  const configs = (await t.app.inject({ method: 'GET', url: '/api/data/provider-configurations/custom', headers })).json();
  const sandbox = configs.find((c: { name: string }) => c.name === 'Sandbox e-mail').id as number;
  await t.app.inject({ method: 'POST', url: '/api/data/provider-configurations/balances', headers, payload: { ids: [sandbox] } });
  await t.app.inject({
    method: 'PUT',
    url: '/api/data/provider-configurations/bounce-address',
    headers,
    payload: { address: 'b@herald.test' },
  });
  await t.app.inject({
    method: 'POST',
    url: '/api/provider-configurations/groups',
    headers,
    payload: { name: 'Mail group', category: 'EMAIL', configs: [{ providerConfigId: sandbox, priority: 1 }] },
  });
  const list = await t.app.inject({ method: 'POST', url: '/api/data/contact-lists', headers, payload: { name: 'Readers' } });
  const listId = list.json().id as number;
  for (let i = 0; i < 3; i++) {
    await t.app.inject({
      method: 'POST',
      url: `/api/data/contact-lists/${listId}/contacts`,
      headers,
      payload: { email: `reader${i}-${accountId}@example.com` },
    });
  }
  await t.app.inject({
    method: 'POST',
    url: '/api/data/template-variables',
    headers,
    payload: { name: 'brand', value: 'Herald' },
  });
  const template = await t.app.inject({
    method: 'POST',
    url: '/api/data/templates',
    headers,
    payload: { name: `welcome-${accountId}`, channel: 'EMAIL', subject: 'Hi', html: '<p>Hi</p>' },
  });
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/data/campaigns',
    headers,
    payload: { name: 'Welcome', channel: 'EMAIL', listId, templateName: template.json().name, configId: sandbox },
  });
  const campaignId = created.json().id as number;
  await t.app.inject({ method: 'POST', url: `/api/data/campaigns/${campaignId}/start`, headers, payload: {} });
  const engine = new Dispatcher({
    db: t.database.db,
    dialect: t.database.dialect,
    pool: t.app.channels,
    content: new CampaignContent(t.database.db, t.app.tracking),
    owner: 'account-test',
  });
  for (let round = 0; round < 10; round++) {
    await t.app.campaigns.tick();
    await engine.runOnce();
  }
  await t.app.inject({
    method: 'PUT',
    url: '/api/data/hooks/settings',
    headers,
    payload: {
      slackUrl: 'https://hooks.slack.com/services/T/B/C',
      senderName: 'Herald',
      events: ['campaign.finished'],
      balanceThreshold: null,
    },
  });
  await t.database.db
    .insertInto('hook_deliveries')
    .values({
      account_id: accountId,
      event: 'test',
      dedupe_key: null,
      payload: '{"text":"x","username":"y"}',
      status: 'sent',
      next_attempt_at: 0,
      lease_until: null,
      response_status: 200,
      last_error: null,
      created_at: Date.now(),
      finished_at: Date.now(),
    })
    .execute();
}

describe('account deletion', () => {
  it('refuses a wrong typed confirmation in the user language and deletes nothing', async () => {
    const user = await signUp(t.app);
    const accountId = await accountIdOf(t, user.email);
    const before = await rowsPerTable(accountId);
    for (const [confirmation, language, message] of [
      ['someone@else.com', 'ru', 'Для подтверждения удаления введите свой адрес e-mail в точности'],
      ['', 'uk', 'Щоб підтвердити видалення, введіть свою адресу e-mail точно'],
      ['DELETE', 'en', 'Type your e-mail address exactly to confirm the deletion'],
    ] as const) {
      const res = await call(user.token, '/api/data/users/delete-account', { confirmation }, language);
      expect(res.statusCode).toBe(400);
      expect(res.json().fields).toEqual([{ field: 'confirmation', key: 'account.deleteConfirmation', message }]);
    }
    expect(await rowsPerTable(accountId)).toEqual(before);
    expect((await me(user.token)).statusCode).toBe(200);
  });

  it('keeps the only administrator account, and lets an administrator go once there is another', async () => {
    const first = await signUp(t.app);
    await makeAdmin(t.database, first.email);
    const refused = await call(first.token, '/api/data/users/delete-account', { confirmation: first.email }, 'uk');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      key: 'account.lastAdmin',
      message: 'Це єдиний обліковий запис адміністратора, тому його не можна видалити.',
    });
    expect((await me(first.token)).statusCode).toBe(200);
    const second = await signUp(t.app);
    await makeAdmin(t.database, second.email);
    expect((await call(first.token, '/api/data/users/delete-account', { confirmation: first.email })).statusCode).toBe(200);
    expect((await me(second.token)).statusCode).toBe(200);
  });

  it('removes every row of the account in every table, ends its sessions, and leaves other accounts alone', async () => {
    const user = await signUp(t.app);
    const accountId = await accountIdOf(t, user.email);
    const bystander = await signUp(t.app);
    const bystanderId = await accountIdOf(t, bystander.email);
    await populate(user.token, accountId);
    await populate(bystander.token, bystanderId);
    const second = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: form,
      payload: `username=${encodeURIComponent(user.email)}&password=${user.password}`,
    });
    expect(second.statusCode).toBe(200);

    const before = await rowsPerTable(accountId);
    const filled = Object.entries(before)
      .filter(([, n]) => n > 0)
      .map(([table]) => table);
    // The deletion is only proven if the account really had data all over the schema.
    expect(filled).toEqual(
      expect.arrayContaining([
        'accounts',
        'sessions',
        'provider_configs',
        'provider_balances',
        'provider_groups',
        'contact_lists',
        'contacts',
        'templates',
        'template_variables',
        'campaigns',
        'messages',
        'message_events',
        'message_rollup',
        'sandbox_messages',
        'hook_settings',
        'hook_deliveries',
        'feedback',
        'feedback_files',
      ]),
    );
    const files = await storedFiles(accountId);
    expect(files).toHaveLength(1);
    expect(existsSync(files[0]!)).toBe(true);
    const bystanderFiles = await storedFiles(bystanderId);
    const bystanderBefore = await rowsPerTable(bystanderId);

    const res = await call(user.token, '/api/data/users/delete-account', { confirmation: `  ${user.email.toUpperCase()} ` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'deleted' });

    const after = await rowsPerTable(accountId);
    expect(Object.entries(after).filter(([, n]) => n > 0)).toEqual([]);
    // Sandbox receipts may still add history rows to the bystander meanwhile; none of its rows may go.
    const bystanderAfter = await rowsPerTable(bystanderId);
    for (const [table, count] of Object.entries(bystanderBefore))
      expect(bystanderAfter[table], table).toBeGreaterThanOrEqual(count);
    expect(existsSync(files[0]!)).toBe(false);
    expect(existsSync(path.dirname(files[0]!))).toBe(false);
    expect(bystanderFiles.every((file) => existsSync(file))).toBe(true);
    // Rows reached only through the account's configs go with them.
    const configIds = (await t.database.db.selectFrom('provider_configs').select('id').execute()).map((row) => Number(row.id));
    const usage = await t.database.db.selectFrom('config_usage').select('config_id').execute();
    expect(usage.every((row) => configIds.includes(Number(row.config_id)))).toBe(true);

    expect((await me(user.token)).statusCode).toBe(401);
    expect((await me(second.json().token)).statusCode).toBe(401);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: form,
      payload: `username=${encodeURIComponent(user.email)}&password=${user.password}`,
    });
    expect(login.statusCode).toBe(401);
    expect((await me(bystander.token)).statusCode).toBe(200);
    // The address is free again.
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/data/users',
      payload: { email: user.email, password: 'Secret123', timeZone: { id: '001' } },
    });
    expect(again.statusCode).toBe(200);
  });
});
