/**
 * Secrets stay secret: every flow that handles one (sign-up, log-in, password change and reset, provider configs of
 * every type, API keys, webhook and Slack secrets) runs against an app that logs at trace level into a buffer; then
 * neither the log nor a dump of the database (the SQLite file's bytes, or every row of every PostgreSQL table) holds
 * any of them in clear, and the sealed values do not open without HERALD_SECRET.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { Config } from '../../src/config.js';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { decryptSecret } from '../../src/lib/crypto.js';
import { openTestDatabase, TEST_DB, testConfig } from '../helpers/app.js';
import { startSmtpSink } from '../helpers/smtp-sink.js';
import { tables } from './fixtures.js';

const dir = mkdtempSync(path.join(tmpdir(), 'herald-secrets-'));
const sqliteFile = path.join(dir, 'herald.db');
const logLines: string[] = [];
let app: FastifyInstance;
let database: DatabaseHandle;
let config: Config;
let drop: () => Promise<void> = async () => {};
let closed = false;

/** Every secret the flows below handled, by what it is. */
const secrets = new Map<string, string>();
const unique = (label: string) => {
  const value = `${label}-${randomBytes(9).toString('base64url')}`;
  secrets.set(label, value);
  return value;
};
/** Secrets the database must not hold in clear (the reset link is in the admin's system outbox by design). */
const storedSecretLabels = () => [...secrets.keys()].filter((label) => label !== 'reset token');

async function closeApp(): Promise<void> {
  if (closed) return;
  closed = true;
  await app.close();
  await database.close();
}

beforeAll(async () => {
  config = testConfig(dir, { seed: true, logLevel: 'trace', secret: randomBytes(32) });
  if (TEST_DB === 'sqlite') {
    database = openDatabase({ sqliteFile });
  } else {
    ({ database, drop } = await openTestDatabase());
  }
  await migrateToLatest(database);
  app = await buildApp({
    config,
    database,
    logger: { level: 'trace', stream: { write: (line: string) => logLines.push(line) } },
  });
  await app.ready();
}, 60_000);
afterAll(async () => {
  await closeApp();
  await drop();
  rmSync(dir, { recursive: true, force: true });
});

async function ok(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string | null, payload?: object) {
  const res = await app.inject({
    method,
    url,
    headers: token ? { 'x-token': token } : {},
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
  return res.json();
}

interface TypeField {
  name: string;
  kind: string;
  required?: boolean;
  default?: string | number | boolean;
  options?: string[];
  min?: number;
  secret?: boolean;
}

/** A value a required field of this kind accepts; secret fields get a unique secret each. */
function fieldValue(type: string, field: TypeField): string | number | boolean | undefined {
  if (field.secret || field.kind === 'secret') return unique(`${type}.${field.name}`);
  if (!field.required) return undefined;
  if (field.default !== undefined) return field.default;
  switch (field.kind) {
    case 'number':
      return field.min ?? 1;
    case 'boolean':
      return false;
    case 'select':
      return field.options?.[0];
    case 'email':
      return 'sender@herald.test';
    case 'url':
      return 'http://127.0.0.1:9/endpoint';
    default:
      return 'value';
  }
}

describe('a run through every flow that handles a secret', () => {
  it('signs up, logs in, changes and resets the password', async () => {
    const email = `owner-${Date.now()}@example.com`;
    const password = 'Initial1Pass';
    secrets.set('sign-up password', password);
    const signup = await ok('POST', '/api/data/users', null, { email, password, timeZone: { id: '001' }, role: 'site' });
    secrets.set('sign-up session token', signup.token);

    const wrong = await app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `username=${encodeURIComponent(email)}&password=${unique('mistyped password')}`,
    });
    expect(wrong.statusCode).toBe(401);
    const form = await app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `username=${encodeURIComponent(email)}&password=${password}`,
    });
    expect(form.statusCode).toBe(200);
    secrets.set('log-in session token', form.json().token);

    const changed = 'Changed2Pass';
    secrets.set('changed password', changed);
    await ok('POST', '/api/data/users/change-password', signup.token, { oldPassword: password, newPassword: changed });

    await ok('GET', `/api/data/users/restore-password?email=${encodeURIComponent(email)}`, null);
    const mail = await database.db
      .selectFrom('system_outbox')
      .select('text_body')
      .where('recipient', '=', email)
      .executeTakeFirstOrThrow();
    const token = /token=([^\s&]+)/.exec(mail.text_body)?.[1];
    expect(token).toBeDefined();
    secrets.set('reset token', decodeURIComponent(token!));
    const reset = 'ResetPass3';
    secrets.set('reset password', reset);
    await ok('POST', '/api/data/users/reset-password', null, { token: decodeURIComponent(token!), password: reset });
    const again = await ok('POST', '/api/login', null, { username: email, password: reset });
    secrets.set('account token', again.token);
  });

  it('creates, updates and tests a provider config of every type with its secrets', async () => {
    const token = secrets.get('account token')!;
    const types = (await ok('GET', '/api/data/provider-configurations/types', token)) as { type: string; fields: TypeField[] }[];
    expect(types.length).toBeGreaterThan(4);
    let withSecrets = 0;
    for (const { type, fields } of types) {
      const settings = Object.fromEntries(
        fields.map((field) => [field.name, fieldValue(type, field)]).filter(([, value]) => value !== undefined),
      );
      const created = await ok('POST', '/api/data/provider-configurations', token, { name: `Config ${type}`, type, settings });
      const secretFields = fields.filter((field) => field.secret || field.kind === 'secret');
      if (secretFields.length === 0) continue;
      withSecrets++;
      const replaced = { ...settings };
      for (const field of secretFields) replaced[field.name] = unique(`${type}.${field.name} (updated)`);
      await ok('PUT', '/api/data/provider-configurations', token, {
        id: created.id,
        name: `Config ${type}`,
        type,
        settings: replaced,
      });
      // Testing the connection fails (nothing listens), and the failure is logged: still without the secret.
      const tested = await app.inject({
        method: 'POST',
        url: '/api/data/provider-configurations/test',
        headers: { 'x-token': token },
        payload: {
          name: `Config ${type}`,
          type,
          settings: {
            ...replaced,
            ...Object.fromEntries(secretFields.map((f) => [f.name, unique(`${type}.${f.name} (tested)`)])),
          },
        },
      });
      expect(tested.statusCode, tested.body).toBeLessThan(500);
    }
    expect(withSecrets).toBeGreaterThan(3);
  });

  it('creates an API key, a webhook secret and a Slack URL, and sends with the key', async () => {
    const { token: apiToken } = await ok('POST', '/api/data/users/switch-profile', secrets.get('account token')!, {
      profile: 'api',
    });
    secrets.set('api-profile session token', apiToken);
    const key = await ok('POST', '/api/data/api-keys', apiToken, { name: 'Integration', scope: 'send' });
    secrets.set('API key', key.key);
    const webhook = await ok('PUT', '/api/data/webhooks', apiToken, { url: 'https://hooks.example.com/herald', enabled: true });
    expect(typeof webhook.secret).toBe('string');
    secrets.set('webhook secret', webhook.secret);
    const rotated = await ok('POST', '/api/data/webhooks/secret', apiToken);
    secrets.set('rotated webhook secret', rotated.secret);
    const slackUrl = `https://hooks.slack.com/services/T0000/B0000/${unique('slack path')}`;
    secrets.set('Slack URL', slackUrl);
    await ok('PUT', '/api/data/hooks/settings', apiToken, { slackUrl, senderName: 'Herald', events: [], balanceThreshold: null });

    const sent = await app.inject({
      method: 'POST',
      url: '/api/v1/messages',
      headers: { authorization: `Bearer ${key.key}` },
      payload: { channel: 'email', to: 'reader@example.com', content: { subject: 'Hi', text: 'Hello' } },
    });
    expect(sent.statusCode, sent.body).toBe(202);
    const refused = await app.inject({ method: 'GET', url: '/api/v1/messages/1', headers: { 'x-api-key': `${key.key}x` } });
    expect(refused.statusCode).toBe(401);
  });

  it('sends through an SMTP server that requires the stored password, and through one that refuses it', async () => {
    const password = unique('SMTP server password');
    const sink = await startSmtpSink({ auth: { user: 'herald', pass: password } });
    try {
      const apiToken = secrets.get('api-profile session token')!;
      const key = await ok('POST', '/api/data/api-keys', apiToken, { name: 'Sender', scope: 'send', rateLimit: 1000 });
      secrets.set('second API key', key.key);
      const settings = { host: '127.0.0.1', port: sink.port, security: 'none', login: 'herald', senderEmail: 'news@herald.test' };
      const good = await ok('POST', '/api/data/provider-configurations', apiToken, {
        name: 'Authenticated SMTP',
        type: 'smtp',
        settings: { ...settings, password },
      });
      const bad = await ok('POST', '/api/data/provider-configurations', apiToken, {
        name: 'Refused SMTP',
        type: 'smtp',
        settings: { ...settings, password: unique('wrong SMTP password') },
      });
      for (const configId of [good.id, bad.id]) {
        const sent = await app.inject({
          method: 'POST',
          url: '/api/v1/messages',
          headers: { authorization: `Bearer ${key.key}` },
          payload: {
            channel: 'email',
            to: `reader-${configId}@example.com`,
            configId,
            content: { subject: 'Hi', text: 'Hello' },
          },
        });
        expect(sent.statusCode, sent.body).toBe(202);
      }
      const refusedAttempts = async () =>
        Number(
          (
            await database.db
              .selectFrom('messages')
              .select('attempts')
              .where('recipient', '=', `reader-${bad.id}@example.com`)
              .executeTakeFirstOrThrow()
          ).attempts,
        );
      for (let round = 0; round < 50 && (sink.messages.length === 0 || (await refusedAttempts()) === 0); round++)
        await app.engine.runOnce();
      expect(sink.messages.map((message) => message.rcptTo[0]?.address)).toEqual([`reader-${good.id}@example.com`]);
      expect(await refusedAttempts()).toBeGreaterThan(0);
    } finally {
      await sink.close();
    }
  });
});

describe('what the run left behind', () => {
  it('logged requests, but no secret', () => {
    expect(logLines.length).toBeGreaterThan(50);
    const log = logLines.join('\n');
    expect(log).toContain('/api/data/provider-configurations');
    for (const [label, value] of secrets) expect(log.includes(value), `${label} in the log`).toBe(false);
  });

  it('stores no secret in clear in any table, and no key to open the sealed ones', async () => {
    const rows: string[] = [];
    for (const { name } of await tables(database)) {
      const found = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(database.db);
      for (const row of found.rows)
        rows.push(JSON.stringify(row, (_key, value) => (typeof value === 'bigint' ? String(value) : value)));
    }
    const dump = rows.join('\n');
    expect(dump).toContain('Config smtp');
    for (const label of storedSecretLabels()) expect(dump.includes(secrets.get(label)!), `${label} in the database`).toBe(false);
    for (const encoding of ['hex', 'base64', 'base64url'] as const) expect(dump).not.toContain(config.secret.toString(encoding));
  });

  it('seals provider secrets so that only HERALD_SECRET opens them', async () => {
    const sealed = await database.db.selectFrom('provider_configs').select(['type', 'secrets']).execute();
    const smtp = sealed.find((row) => row.type === 'smtp');
    expect(smtp).toBeDefined();
    expect(JSON.parse(decryptSecret(smtp!.secrets, config.secret))).toMatchObject({
      password: secrets.get('smtp.password (updated)'),
    });
    for (const row of sealed) expect(() => decryptSecret(row.secrets, randomBytes(32))).toThrow();
    const flipped = Buffer.from(smtp!.secrets, 'base64');
    flipped[flipped.length - 1]! ^= 1;
    expect(() => decryptSecret(flipped.toString('base64'), config.secret)).toThrow();
  });

  it.runIf(TEST_DB === 'sqlite')('leaves no secret in the bytes of the SQLite file', async () => {
    await closeApp();
    const bytes = Buffer.concat(
      [sqliteFile, `${sqliteFile}-wal`, `${sqliteFile}-journal`].filter(existsSync).map((file) => readFileSync(file)),
    );
    expect(bytes.includes(Buffer.from('Config smtp'))).toBe(true);
    for (const label of storedSecretLabels())
      expect(bytes.includes(Buffer.from(secrets.get(label)!)), `${label} in the SQLite file`).toBe(false);
    expect(bytes.includes(config.secret)).toBe(false);
  });
});
