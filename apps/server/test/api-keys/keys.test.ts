import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
});
