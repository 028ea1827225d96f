import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountIdOf, statusCounts } from '../engine/helpers.js';
import { createTestApp, signUp, type TestApp } from '../helpers/app.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ seed: true });
});
afterAll(async () => {
  await t.close();
});

describe('campaign start', () => {
  it('puts every recipient of a large list in the ledger in one supervisor tick, chunk after chunk', async () => {
    const user = await signUp(t.app);
    const headers = { 'x-token': user.token };
    const accountId = await accountIdOf(t, user.email);
    const now = Date.now();
    const list = await t.database.db
      .insertInto('contact_lists')
      .values({ account_id: accountId, name: 'Large', created_at: now, updated_at: now } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    // Two and a half of the supervisor's 10,000-recipient chunks.
    const recipients = 25_000;
    for (let start = 0; start < recipients; start += 1000) {
      await t.database.db
        .insertInto('contacts')
        .values(
          Array.from({ length: 1000 }, (_, i) => ({
            account_id: accountId,
            list_id: Number(list.id),
            email: `r${start + i}@example.com`,
            status: 'active',
            attributes: '{}',
            created_at: now,
            updated_at: now,
          })) as never,
        )
        .execute();
    }
    const template = await t.app.inject({
      method: 'POST',
      url: '/api/data/templates',
      headers,
      payload: { name: 'large', channel: 'EMAIL', subject: 'Hi', html: '<p>Hi {{ contact.email }}</p>' },
    });
    expect(template.statusCode).toBe(200);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/data/campaigns',
      headers,
      payload: { name: 'Large', channel: 'EMAIL', listId: Number(list.id), templateName: 'large' },
    });
    expect(created.statusCode).toBe(200);
    const id = created.json().id;
    const started = await t.app.inject({ method: 'POST', url: `/api/data/campaigns/${id}/start`, headers, payload: {} });
    expect(started.json().state).toBe('sending');

    await t.app.campaigns.tick();
    const campaign = (await t.app.inject({ method: 'GET', url: `/api/data/campaigns/${id}`, headers })).json();
    expect(campaign).toMatchObject({ state: 'sending', total: recipients });
    expect(await statusCounts(t, accountId)).toEqual({ unsent: recipients });
  });
});
