import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let owner: { token: string };
let stranger: { token: string };

beforeAll(async () => {
  t = await createTestApp();
  owner = await signUp(t.app);
  stranger = await signUp(t.app);
});
afterAll(async () => t.close());

const as = (user: { token: string }) => ({ 'x-token': user.token });

async function createSandbox(user: { token: string }, over: Record<string, unknown> = {}) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/data/provider-configurations',
    headers: as(user),
    payload: {
      name: `Sandbox ${Math.random().toString(36).slice(2, 8)}`,
      type: 'sandbox-sms',
      settings: { sender: 'Acme' },
      ...over,
    },
  });
  return res;
}

describe('provider types', () => {
  it('lists each type with its category and form fields', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/data/provider-configurations/types', headers: as(owner) });
    expect(res.statusCode).toBe(200);
    const types = res.json() as { type: string; category: string; fields: { name: string }[] }[];
    expect(types).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'sandbox-email', category: 'EMAIL' })]));
    const sms = types.find((entry) => entry.type === 'sandbox-sms');
    expect(sms?.fields.map((field) => field.name)).toContain('deliveredShare');
  });
});

describe('provider configs', () => {
  it('creates, reads, lists, updates and deletes a config', async () => {
    const created = await createSandbox(owner, {
      name: 'Main SMS',
      limitPerDay: 100,
      filter: [{ kind: 'country', value: 'ru' }],
    });
    expect(created.statusCode).toBe(200);
    const config = created.json();
    expect(config).toMatchObject({
      name: 'Main SMS',
      type: 'sandbox-sms',
      category: 'SMS',
      active: true,
      limitPerDay: 100,
      limitPerMonth: null,
      filter: [{ kind: 'country', value: 'RU' }],
      settings: { sender: 'Acme', deliveredShare: 95 },
    });
    expect(config.providerConfigId).toBe(config.id);

    const one = await t.app.inject({ method: 'GET', url: `/api/data/provider-configurations/${config.id}`, headers: as(owner) });
    expect(one.json().name).toBe('Main SMS');
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/data/provider-configurations/custom?category=SMS',
      headers: as(owner),
    });
    expect(list.json().map((c: { id: number }) => c.id)).toContain(config.id);

    const updated = await t.app.inject({
      method: 'PUT',
      url: '/api/data/provider-configurations',
      headers: as(owner),
      payload: { id: config.id, name: 'Main SMS 2', type: 'sandbox-sms', active: false, settings: { sender: 'Acme2' } },
    });
    expect(updated.json()).toMatchObject({ name: 'Main SMS 2', active: false, settings: { sender: 'Acme2' } });

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/data/provider-configurations/${config.id}`,
      headers: as(owner),
    });
    expect(deleted.statusCode).toBe(200);
    const gone = await t.app.inject({ method: 'GET', url: `/api/data/provider-configurations/${config.id}`, headers: as(owner) });
    expect(gone.statusCode).toBe(404);
  });

  it('answers 404 for another account’s config on every verb', async () => {
    const config = (await createSandbox(owner)).json();
    const calls = [
      { method: 'GET' as const, url: `/api/data/provider-configurations/${config.id}` },
      { method: 'DELETE' as const, url: `/api/data/provider-configurations/${config.id}` },
      {
        method: 'PUT' as const,
        url: '/api/data/provider-configurations',
        payload: { id: config.id, name: 'Stolen', type: 'sandbox-sms', settings: { sender: 'X' } },
      },
      {
        method: 'POST' as const,
        url: '/api/data/provider-configurations/test',
        payload: { id: config.id, name: 'x', type: 'sandbox-sms' },
      },
      { method: 'POST' as const, url: '/api/data/user-provider-options', payload: { providerConfigId: config.id } },
      {
        method: 'POST' as const,
        url: '/api/provider-configurations/groups',
        payload: { name: 'G', category: 'SMS', configs: [{ providerConfigId: config.id }] },
      },
    ];
    for (const call of calls) {
      const res = await t.app.inject({ ...call, headers: as(stranger) });
      expect(res.statusCode, `${call.method} ${call.url}`).toBe(404);
    }
    const balances = await t.app.inject({
      method: 'POST',
      url: '/api/data/provider-configurations/balances',
      headers: as(stranger),
      payload: { ids: [config.id] },
    });
    expect(balances.json()).toEqual([]);
    const still = await t.app.inject({
      method: 'GET',
      url: `/api/data/provider-configurations/${config.id}`,
      headers: as(owner),
    });
    expect(still.json().name).toBe(config.name);
  });

  it('refuses a duplicate name, a missing mandatory field, a 5th filter, operator codes with letters and filters on e-mail', async () => {
    const first = (await createSandbox(owner, { name: 'Taken' })).json();
    expect(first.name).toBe('Taken');
    const duplicate = await createSandbox(owner, { name: 'Taken' });
    expect(duplicate.json().fields).toContainEqual({
      field: 'name',
      key: 'validation.nameExists',
      message: 'This name already exists.',
    });

    const missing = await createSandbox(owner, { name: '  ' });
    expect(missing.json().fields).toContainEqual({
      field: 'name',
      key: 'validation.mandatory',
      message: 'Mandatory field missing.',
    });

    const filters = Array.from({ length: 5 }, () => ({ kind: 'operator', value: '900' }));
    const tooMany = await createSandbox(owner, { filter: filters });
    expect(tooMany.json().fields[0]).toMatchObject({ field: 'filter', key: 'validation.tooManyFilters' });

    const letters = await createSandbox(owner, { filter: [{ kind: 'operator', value: '90a, 901' }] });
    expect(letters.json().fields[0]).toMatchObject({ field: 'filter.0.value', key: 'validation.invalidOperatorCodes' });

    const country = await createSandbox(owner, { filter: [{ kind: 'country', value: 'ZZ' }] });
    expect(country.json().fields[0]).toMatchObject({ field: 'filter.0.value', key: 'validation.unknownCountry' });

    // Countries and operators come from phone numbers: an e-mail config cannot filter by them, and says so.
    const email = await createSandbox(owner, {
      type: 'sandbox-email',
      settings: {},
      filter: [{ kind: 'country', value: 'DE' }],
    });
    expect(email.statusCode).toBe(400);
    expect(email.json().fields).toEqual([
      {
        field: 'filter',
        key: 'providers.filterSmsOnly',
        message: 'Recipient filters apply to SMS configurations only: countries and operators come from phone numbers.',
      },
    ]);

    const range = await createSandbox(owner, { settings: { sender: 'A', deliveredShare: 150 } });
    expect(range.json().fields[0]).toMatchObject({ field: 'deliveredShare', key: 'validation.outOfRange' });

    const unknownType = await createSandbox(owner, { type: 'carrier-pigeon' });
    expect(unknownType.json().fields[0]).toMatchObject({ field: 'type', key: 'providers.unknownType' });

    const ru = await t.app.inject({
      method: 'POST',
      url: '/api/data/provider-configurations',
      headers: { ...as(owner), 'accept-language': 'ru' },
      payload: { name: 'Taken', type: 'sandbox-sms', settings: { sender: 'A' } },
    });
    expect(ru.json().fields[0].message).toBe('Такое имя уже существует.');

    const list = await t.app.inject({ method: 'GET', url: '/api/data/provider-configurations/custom', headers: as(owner) });
    expect(list.json().filter((c: { name: string }) => c.name === 'Taken')).toHaveLength(1);
  });

  it('names an SMTP port out of range and a missing host, and saves nothing', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/data/provider-configurations',
      headers: as(owner),
      payload: { name: 'Bad SMTP', type: 'smtp', settings: { port: 70000, senderEmail: 'news@example.com' } },
    });
    expect(res.statusCode).toBe(400);
    const byField = Object.fromEntries(res.json().fields.map((f: { field: string; key: string }) => [f.field, f.key]));
    expect(byField).toMatchObject({ host: 'validation.mandatory', port: 'validation.outOfRange' });
    const list = await t.app.inject({ method: 'GET', url: '/api/data/provider-configurations/custom', headers: as(owner) });
    expect(list.json().map((c: { name: string }) => c.name)).not.toContain('Bad SMTP');
  });

  it('keeps an explicit null limit as no limit (JSON bodies are not coerced)', async () => {
    const res = await createSandbox(owner, { limitPerDay: null, limitPerMonth: null });
    expect(res.json()).toMatchObject({ limitPerDay: null, limitPerMonth: null });
    const stringly = await createSandbox(owner, { limitPerDay: '5' });
    expect(stringly.statusCode).toBe(400);
  });

  it('refuses a day limit above the month limit, which could never be reached', async () => {
    const res = await createSandbox(owner, { limitPerDay: 100, limitPerMonth: 50 });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual([
      expect.objectContaining({ field: 'limitPerDay', message: 'The limit per day cannot be above the limit per month.' }),
    ]);
    expect((await createSandbox(owner, { limitPerDay: 50, limitPerMonth: 50 })).statusCode).toBe(200);
  });

  it('counts configs per category', async () => {
    const user = await signUp(t.app);
    await createSandbox(user);
    await createSandbox(user);
    const res = await t.app.inject({ method: 'GET', url: '/api/data/provider-configurations/counts', headers: as(user) });
    expect(res.json()).toEqual([
      { category: 'EMAIL', count: 0 },
      { category: 'SMS', count: 2 },
    ]);
  });

  it('tests the connection of unsaved settings', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/data/provider-configurations/test',
      headers: as(owner),
      payload: { name: '', type: 'sandbox-email', settings: { senderEmail: 'a@b.co' } },
    });
    expect(res.json()).toMatchObject({ ok: true });
  });
});

describe('balances', () => {
  it('reads at most 5 balances, caches each for a minute, and reads again a config saved since', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push((await createSandbox(owner, { settings: { sender: 'A', balance: 10 + i } })).json().id);
    const read = async (payload: number[] | { ids: number[] }) =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/data/provider-configurations/balances',
          headers: as(owner),
          payload,
        })
      ).json();
    const balances = await read({ ids });
    expect(balances).toHaveLength(5);
    expect(balances[0]).toMatchObject({ providerConfigId: ids[0], balance: 10, currency: 'SBX', error: null });
    // Within the minute the stored reading answers: the vendor is not asked again.
    const cached = await read([ids[0]]);
    expect(cached[0]).toMatchObject({ balance: 10, updatedAt: balances[0].updatedAt });

    // New settings (another vendor account, say) make the stored reading stale at once.
    await t.app.inject({
      method: 'PUT',
      url: '/api/data/provider-configurations',
      headers: as(owner),
      payload: { id: ids[0], name: `Renamed ${ids[0]}`, type: 'sandbox-sms', settings: { sender: 'A', balance: 99 } },
    });
    expect((await read([ids[0]]))[0].balance).toBe(99);
    await t.database.db
      .updateTable('provider_configs')
      .set({ settings: JSON.stringify({ sender: 'A', balance: 42 }) })
      .where('id', '=', ids[1])
      .execute();
    await t.database.db
      .updateTable('provider_balances')
      .set({ checked_at: Date.now() - 61_000 })
      .where('config_id', '=', ids[1])
      .execute();
    await t.app.channels.forget(ids[1]);
    // A minute old, it is read again.
    expect((await read([ids[1]]))[0].balance).toBe(42);
  });
});

describe('default options and bounce address', () => {
  it('keeps one default config per category', async () => {
    const user = await signUp(t.app);
    const a = (await createSandbox(user)).json();
    const b = (await createSandbox(user)).json();
    await t.app.inject({
      method: 'POST',
      url: '/api/data/user-provider-options',
      headers: as(user),
      payload: { providerConfigId: a.id },
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/data/user-provider-options',
      headers: as(user),
      payload: { providerConfigId: b.id },
    });
    expect(res.json()).toEqual([{ providerConfigId: b.id, category: 'SMS' }]);
  });

  it('stores the bounce address and refuses a malformed one', async () => {
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/data/provider-configurations/bounce-address',
      headers: as(owner),
      payload: { address: 'bounces@example.com' },
    });
    expect(put.statusCode).toBe(200);
    const get = await t.app.inject({
      method: 'GET',
      url: '/api/data/provider-configurations/bounce-address',
      headers: as(owner),
    });
    expect(get.json()).toEqual({ address: 'bounces@example.com' });
    const bad = await t.app.inject({
      method: 'PUT',
      url: '/api/data/provider-configurations/bounce-address',
      headers: as(owner),
      payload: { address: 'nope' },
    });
    expect(bad.statusCode).toBe(400);
  });
});
