import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_TRUST_MS, KeyCache } from '../../src/api-keys/key-cache.js';
import { hashToken } from '../../src/lib/crypto.js';
import { createTestApp, signUp, type TestApp } from '../helpers/app.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function apiUser() {
  const user = await signUp(t.app, { role: 'api' });
  return { 'x-token': user.token };
}

describe('API keys', () => {
  it('creates a key shown once, lists it without the key, and revokes it', async () => {
    const headers = await apiUser();
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/data/api-keys',
      headers,
      payload: { name: 'Shop backend', scope: 'send' },
    });
    expect(created.statusCode).toBe(200);
    const key = created.json();
    expect(key.key).toMatch(/^hk_[A-Za-z0-9_-]{40}$/);
    expect(key).toMatchObject({ name: 'Shop backend', scope: 'send', rateLimit: 100, lastUsedAt: null, revokedAt: null });
    expect(key.keyStart).toBe(`${key.key.slice(0, 7)}…`);

    const stored = await t.database.db
      .selectFrom('api_keys')
      .select('key_hash')
      .where('id', '=', key.id)
      .executeTakeFirstOrThrow();
    expect(stored.key_hash).not.toContain(key.key);

    const list = await t.app.inject({ method: 'GET', url: '/api/data/api-keys', headers });
    expect(list.json().items).toHaveLength(1);
    expect(list.json().items[0]).not.toHaveProperty('key');
    expect(JSON.stringify(list.json())).not.toContain(key.key);

    const used = await t.app.inject({
      method: 'GET',
      url: '/api/v1/messages/1',
      headers: { authorization: `Bearer ${key.key}` },
    });
    expect(used.statusCode).toBe(404);
    const afterUse = await t.app.inject({ method: 'GET', url: '/api/data/api-keys', headers });
    expect(afterUse.json().items[0].lastUsedAt).toBeGreaterThan(0);

    const revoked = await t.app.inject({ method: 'DELETE', url: `/api/data/api-keys/${key.id}`, headers });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().revokedAt).toBeGreaterThan(0);
    const refused = await t.app.inject({ method: 'GET', url: '/api/v1/messages/1', headers: { 'x-api-key': key.key } });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ statusCode: 401, key: 'apiKey.invalid', fields: [] });
  });

  it('names the missing key name, and keeps other accounts and the site profile out', async () => {
    const headers = await apiUser();
    const noName = await t.app.inject({
      method: 'POST',
      url: '/api/data/api-keys',
      headers,
      payload: { name: ' ', scope: 'read' },
    });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().fields[0]).toMatchObject({ field: 'name', key: 'validation.mandatory' });

    const created = await t.app.inject({
      method: 'POST',
      url: '/api/data/api-keys',
      headers,
      payload: { name: 'k', scope: 'read' },
    });
    const other = await apiUser();
    const foreign = await t.app.inject({ method: 'DELETE', url: `/api/data/api-keys/${created.json().id}`, headers: other });
    expect(foreign.statusCode).toBe(404);
    const site = await signUp(t.app, { role: 'site' });
    const forbidden = await t.app.inject({ method: 'GET', url: '/api/data/api-keys', headers: { 'x-token': site.token } });
    expect(forbidden.statusCode).toBe(403);
  });

  it('refuses a key revoked by another process once its cache entry is older than KEY_TRUST_MS', async () => {
    const headers = await apiUser();
    const created = (
      await t.app.inject({ method: 'POST', url: '/api/data/api-keys', headers, payload: { name: 'k', scope: 'send' } })
    ).json();
    // Another API process on the same database: a cache of its own, which this app's revocation does not reach.
    const elsewhere = new KeyCache(t.database.db);
    const hash = hashToken(created.key);
    const readAt = Date.now();
    expect(await elsewhere.find(hash, readAt)).toMatchObject({ keyId: created.id, scope: 'send' });

    const revoked = await t.app.inject({ method: 'DELETE', url: `/api/data/api-keys/${created.id}`, headers });
    expect(revoked.statusCode).toBe(200);
    const here = await t.app.inject({
      method: 'POST',
      url: '/api/v1/messages',
      headers: { authorization: `Bearer ${created.key}` },
      payload: { channel: 'sms', to: '+15550100', content: { text: 'hi' } },
    });
    expect(here.statusCode).toBe(401);

    expect(await elsewhere.find(hash, readAt + KEY_TRUST_MS - 1)).toBeDefined();
    expect(await elsewhere.find(hash, readAt + KEY_TRUST_MS)).toBeUndefined();
  });

  it('forgets a key revoked in this process even while it is being read', async () => {
    const headers = await apiUser();
    const created = (
      await t.app.inject({ method: 'POST', url: '/api/data/api-keys', headers, payload: { name: 'k', scope: 'read' } })
    ).json();
    const cache = new KeyCache(t.database.db);
    const hash = hashToken(created.key);
    const pending = cache.find(hash);
    await t.database.db.updateTable('api_keys').set({ revoked_at: Date.now() }).where('id', '=', created.id).execute();
    cache.forget(created.id);
    await pending;
    expect(await cache.find(hash)).toBeUndefined();
  });
});
