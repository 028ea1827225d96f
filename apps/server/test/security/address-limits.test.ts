/**
 * The client address behind X-Forwarded-For is believed only from trusted proxies (TRUST_PROXY), and the calls
 * anyone can repeat (sign-up, feedback uploads) are capped per client address with 429 and Retry-After.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressBlock } from '../../src/auth/address-throttle.js';
import { loadConfig } from '../../src/config.js';
import { createTestApp, signUp, type TestApp } from '../helpers/app.js';

const PROXY_PEER = '127.0.0.1';
const REMOTE_PEER = '198.51.100.20';
const SPOOFED = '203.0.113.66';

const apps: TestApp[] = [];
afterAll(async () => {
  for (const t of apps) await t.close();
});

async function app(overrides: Parameters<typeof createTestApp>[0] = {}): Promise<TestApp> {
  const t = await createTestApp(overrides);
  apps.push(t);
  return t;
}

/** A failed log-in from a peer, and the key the throttle counted it under. */
async function failedLoginKey(t: TestApp, peer: string, forwardedFor?: string): Promise<string> {
  const username = `nobody-${Date.now()}-${Math.random()}@example.com`;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/login',
    remoteAddress: peer,
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
    payload: { username, password: 'Wrong1Pass' },
  });
  expect(res.statusCode).toBe(401);
  const row = await t.database.db
    .selectFrom('login_failures')
    .select('attempt_key')
    .where('attempt_key', 'like', `${username}|%`)
    .where('attempt_key', '!=', `${username}|any`)
    .executeTakeFirstOrThrow();
  return row.attempt_key.slice(username.length + 1);
}

describe('TRUST_PROXY', () => {
  it('reads false, true, a list, and the loopback default from the environment, and names itself on bad input', () => {
    const env = { DATA_DIR: '/tmp/herald-trust-proxy', HERALD_SECRET: 'a'.repeat(64) };
    expect(loadConfig(env).trustProxy).toEqual(['loopback']);
    expect(loadConfig({ ...env, TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ ...env, TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ ...env, TRUST_PROXY: '10.0.0.0/8, 192.0.2.1,uniquelocal' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.0.2.1',
      'uniquelocal',
    ]);
    expect(() => loadConfig({ ...env, TRUST_PROXY: 'nginx' })).toThrow(/TRUST_PROXY.*"nginx"/);
  });

  it('off: a spoofed X-Forwarded-For changes nothing, and rotating it does not escape the log-in throttle', async () => {
    const t = await app({ trustProxy: false });
    expect(await failedLoginKey(t, PROXY_PEER, SPOOFED)).toBe(PROXY_PEER);
    expect(await failedLoginKey(t, REMOTE_PEER, SPOOFED)).toBe(REMOTE_PEER);
    const user = await signUp(t.app);
    const attempt = (i: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/login',
        headers: { 'x-forwarded-for': `192.0.2.${i + 1}` },
        payload: { username: user.email, password: `Wrong${i}Pass` },
      });
    for (let i = 0; i < 10; i++) expect((await attempt(i)).statusCode).toBe(401);
    expect((await attempt(10)).statusCode).toBe(429);
  });

  it('on: the forwarded client address is the one counted', async () => {
    const t = await app({ trustProxy: true });
    expect(await failedLoginKey(t, REMOTE_PEER, SPOOFED)).toBe(SPOOFED);
  });

  it('by default believes only a proxy on the same machine', async () => {
    const t = await app();
    expect(await failedLoginKey(t, PROXY_PEER, SPOOFED)).toBe(SPOOFED);
    // What a client wrote before the address the local proxy appended is not believed.
    expect(await failedLoginKey(t, PROXY_PEER, `${SPOOFED}, 192.0.2.9`)).toBe('192.0.2.9');
    expect(await failedLoginKey(t, REMOTE_PEER, SPOOFED)).toBe(REMOTE_PEER);
    expect(await failedLoginKey(t, REMOTE_PEER)).toBe(REMOTE_PEER);
  });
});

describe('per-address caps', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await app({ signupsPerHour: 3, feedbackPerHour: 2 });
  });

  const signup = (peer: string, language = 'en') =>
    t.app.inject({
      method: 'POST',
      url: '/api/data/users',
      remoteAddress: peer,
      headers: { 'accept-language': language },
      payload: {
        email: `cap-${Date.now()}-${Math.random()}@example.com`,
        password: 'Secret123',
        timeZone: { id: '001', offset: 0 },
        role: 'site',
      },
    });

  it('refuses a fourth sign-up from one address within the hour with 429, Retry-After and a translated message', async () => {
    for (let i = 0; i < 3; i++) expect((await signup('192.0.2.10')).statusCode).toBe(200);
    const refused = await signup('192.0.2.10', 'ru');
    expect(refused.statusCode).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(refused.json()).toMatchObject({ key: 'error.tooManyRequests', message: expect.stringContaining('Слишком много') });
    // Another address is not affected, and the refused call created nothing.
    expect((await signup('192.0.2.11')).statusCode).toBe(200);
    const accounts = await t.database.db.selectFrom('accounts').select('id').where('email', 'like', 'cap-%').execute();
    expect(accounts).toHaveLength(4);
  });

  it('counts an IPv6 client by its /64', async () => {
    expect(addressBlock('2001:db8:a:b:1:2:3:4')).toBe('2001:db8:a:b::/64');
    expect(addressBlock('2001:DB8::1')).toBe('2001:db8:0:0::/64');
    expect(addressBlock('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(addressBlock('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    for (const host of ['1', '2', '3']) expect((await signup(`2001:db8:5:6::${host}`)).statusCode).toBe(200);
    expect((await signup('2001:db8:5:6:ffff::9')).statusCode).toBe(429);
    expect((await signup('2001:db8:5:7::1')).statusCode).toBe(200);
  });

  it('does not count a sign-up the form already refuses', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/data/users',
      remoteAddress: '192.0.2.12',
      payload: { email: 'not-an-email', password: 'Secret123', timeZone: { id: '001', offset: 0 }, role: 'site' },
    });
    expect(bad.statusCode).toBe(400);
    for (let i = 0; i < 3; i++) expect((await signup('192.0.2.12')).statusCode).toBe(200);
  });

  it('refuses a third feedback upload from one address within the hour, before storing anything', async () => {
    const { token } = await signUp(t.app);
    const send = async (peer: string) => {
      const form = new FormData();
      form.append('name', 'Ann');
      form.append('email', 'ann@example.com');
      form.append('desc', 'The report page is empty.');
      const encoded = new Response(form);
      return t.app.inject({
        method: 'POST',
        url: '/api/feedback',
        remoteAddress: peer,
        payload: Buffer.from(await encoded.arrayBuffer()),
        headers: { 'content-type': encoded.headers.get('content-type') ?? '', 'x-token': token, 'accept-language': 'uk' },
      });
    };
    expect((await send('192.0.2.20')).statusCode).toBe(200);
    expect((await send('192.0.2.20')).statusCode).toBe(200);
    const refused = await send('192.0.2.20');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3500);
    expect(refused.json()).toMatchObject({ key: 'error.tooManyRequests', message: expect.stringContaining('Забагато') });
    expect((await send('192.0.2.21')).statusCode).toBe(200);
    const stored = await t.database.db.selectFrom('feedback').select('id').execute();
    expect(stored).toHaveLength(3);
  });
});
