/** Accounts with one real record of every kind, and a snapshot of the whole database, for the security suites. */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../../src/db/database.js';
import { hashToken } from '../../src/lib/crypto.js';
import type { TestApp } from '../helpers/app.js';
import { signUp } from '../helpers/app.js';

export interface Account {
  email: string;
  password: string;
  token: string;
  accountId: number;
}

/** One record of every kind an account owns; `secret` is the SMTP password stored in its config. */
export interface OwnedRecords {
  configId: number;
  sandboxEmailConfigId: number;
  groupId: number;
  categoryId: number;
  variableName: string;
  templateName: string;
  listId: number;
  contactId: number;
  importId: number;
  draftCampaignId: number;
  sentCampaignId: number;
  messageId: number;
  secret: string;
  /** A session of the account on the API profile. */
  apiToken: string;
  apiKeyId: number;
  apiKey: string;
  revokedApiKey: string;
}

export async function newAccount(t: TestApp, role: 'site' | 'api' = 'site'): Promise<Account> {
  const user = await signUp(t.app, { role });
  const row = await t.database.db
    .selectFrom('accounts')
    .select('id')
    .where('email', '=', user.email.toLowerCase())
    .executeTakeFirstOrThrow();
  return { ...user, accountId: Number(row.id) };
}

/** A second session of the account whose last use lies beyond the idle period. */
export async function expiredToken(t: TestApp, account: Account): Promise<string> {
  const login = await t.app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { username: account.email, password: account.password },
  });
  const token: string = login.json().token;
  const longAgo = Date.now() - (t.config.sessionIdleDays + 1) * 24 * 60 * 60 * 1000;
  await t.database.db.updateTable('sessions').set({ last_seen_at: longAgo }).where('token_hash', '=', hashToken(token)).execute();
  return token;
}

async function call(app: FastifyInstance, token: string, method: 'POST' | 'PUT', url: string, payload: object) {
  const res = await app.inject({ method, url, headers: { 'x-token': token }, payload });
  if (res.statusCode !== 200) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body}`);
  return res.json();
}

/** A file upload encoded the way a browser sends it. */
export async function multipart(fields: Record<string, string>, file: { name: string; content: string | Buffer; type: string }) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const bytes = typeof file.content === 'string' ? Buffer.from(file.content) : file.content;
  form.append('file', new Blob([new Uint8Array(bytes)], { type: file.type }), file.name);
  const encoded = new Response(form);
  return { payload: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type') ?? '' };
}

/** Creates every kind of record through the API (the sandbox configs come from sign-up with seeding on). */
export async function createRecords(t: TestApp, account: Account, label: string): Promise<OwnedRecords> {
  const { app } = t;
  const token = account.token;
  const secret = `smtp-secret-${label}-${Math.random().toString(36).slice(2, 12)}`;
  const config = await call(app, token, 'POST', '/api/data/provider-configurations', {
    name: `Mail ${label}`,
    type: 'smtp',
    settings: {
      host: '127.0.0.1',
      port: 2525,
      security: 'none',
      login: `login-${label}`,
      password: secret,
      senderEmail: `${label}@herald.test`,
    },
  });
  const configs = (
    await app.inject({ method: 'GET', url: '/api/data/provider-configurations/custom', headers: { 'x-token': token } })
  ).json() as { id: number; type: string }[];
  const sandboxEmail = configs.find((c) => c.type === 'sandbox-email');
  if (!sandboxEmail) throw new Error('the account has no sandbox e-mail config: create the test app with seed: true');
  const group = await call(app, token, 'POST', '/api/provider-configurations/groups', {
    name: `Group ${label}`,
    category: 'EMAIL',
    configs: [{ providerConfigId: config.id, priority: 1 }],
  });
  const category = await call(app, token, 'POST', '/api/data/template-categories', { name: `Category ${label}` });
  const variable = await call(app, token, 'POST', '/api/data/template-variables', { name: `brand_${label}`, value: label });
  const template = await call(app, token, 'POST', '/api/data/templates', {
    name: `welcome-${label}`,
    categoryId: category.id,
    channel: 'EMAIL',
    subject: 'Hello {{ contact.name }}',
    html: `<p>Hello {{ contact.name }} from {{ vars.brand_${label} }}</p>`,
  });
  const list = await call(app, token, 'POST', '/api/data/contact-lists', { name: `List ${label}`, defaultCountry: 'UA' });
  const contact = await call(app, token, 'POST', `/api/data/contact-lists/${list.id}/contacts`, {
    email: `reader-${label}@example.com`,
    name: `Reader ${label}`,
    attributes: { city: 'Kyiv' },
  });
  const upload = await multipart(
    {},
    { name: 'more.csv', content: `email,name\nmore-${label}@example.com,More\n`, type: 'text/csv' },
  );
  const imported = await app.inject({
    method: 'POST',
    url: `/api/data/contact-lists/${list.id}/imports`,
    headers: { 'x-token': token, 'content-type': upload.contentType },
    payload: upload.payload,
  });
  if (imported.statusCode !== 200) throw new Error(`upload answered ${imported.statusCode}: ${imported.body}`);
  const campaignBody = { channel: 'EMAIL', listId: list.id, templateName: template.name, configId: sandboxEmail.id };
  const draft = await call(app, token, 'POST', '/api/data/campaigns', { ...campaignBody, name: `Draft ${label}` });
  const sent = await call(app, token, 'POST', '/api/data/campaigns', { ...campaignBody, name: `Sent ${label}` });
  await call(app, token, 'POST', `/api/data/campaigns/${sent.id}/start`, {});
  // The supervisor materialises the started campaign's messages (no workers run in tests).
  await app.campaigns.tick();
  const message = await t.database.db
    .selectFrom('messages')
    .select('id')
    .where('campaign_id', '=', sent.id)
    .executeTakeFirstOrThrow();
  const login = await call(app, '', 'POST', '/api/login', { username: account.email, password: account.password });
  const { token: apiToken } = await call(app, login.token, 'POST', '/api/data/users/switch-profile', { profile: 'api' });
  const apiKey = await call(app, apiToken, 'POST', '/api/data/api-keys', { name: `Key ${label}`, scope: 'send' });
  const revoked = await call(app, apiToken, 'POST', '/api/data/api-keys', { name: `Old key ${label}`, scope: 'send' });
  const revokedAnswer = await app.inject({
    method: 'DELETE',
    url: `/api/data/api-keys/${revoked.id}`,
    headers: { 'x-token': apiToken },
  });
  if (revokedAnswer.statusCode !== 200) throw new Error(`revoking a key answered ${revokedAnswer.statusCode}`);
  return {
    configId: config.id,
    sandboxEmailConfigId: sandboxEmail.id,
    groupId: group.id,
    categoryId: category.id,
    variableName: variable.name,
    templateName: template.name,
    listId: list.id,
    contactId: contact.id,
    importId: imported.json().importId,
    draftCampaignId: draft.id,
    sentCampaignId: sent.id,
    messageId: Number(message.id),
    secret,
    apiToken,
    apiKeyId: apiKey.id,
    apiKey: apiKey.key,
    revokedApiKey: revoked.key,
  };
}

/** The application's tables with their column names. */
export async function tables(database: DatabaseHandle): Promise<{ name: string; columns: string[] }[]> {
  const found = await database.db.introspection.getTables();
  return found.map((table) => ({ name: table.name, columns: table.columns.map((column) => column.name) }));
}

const asText = (row: Record<string, unknown>) =>
  JSON.stringify(row, (_key, value) => (typeof value === 'bigint' ? String(value) : value));

/**
 * Every row one account owns (tables with account_id) and every row of the tables without one, in a stable
 * order, as text; `exclude` names tables that may change without the account's data changing.
 */
export async function snapshot(
  database: DatabaseHandle,
  accountId: number,
  exclude: readonly string[],
): Promise<Record<string, string[]>> {
  const result: Record<string, string[]> = {};
  for (const { name, columns } of await tables(database)) {
    if (exclude.includes(name)) continue;
    const query = columns.includes('account_id')
      ? sql<Record<string, unknown>>`select * from ${sql.table(name)} where account_id = ${accountId}`
      : sql<Record<string, unknown>>`select * from ${sql.table(name)}`;
    result[name] = (await query.execute(database.db)).rows.map(asText).sort();
  }
  return result;
}
