import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let user: { token: string };
const headers = () => ({ 'x-token': user.token });

beforeAll(async () => {
  t = await createTestApp();
  user = await signUp(t.app);
});
afterAll(async () => t.close());

async function config(type: 'sandbox-sms' | 'sandbox-email', name: string): Promise<number> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/data/provider-configurations',
    headers: headers(),
    payload: { name, type },
  });
  return res.json().id;
}

describe('provider groups', () => {
  it('orders configs by priority and gives unselected ones 99', async () => {
    const a = await config('sandbox-sms', 'SMS A');
    const b = await config('sandbox-sms', 'SMS B');
    const c = await config('sandbox-sms', 'SMS C');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/provider-configurations/groups',
      headers: headers(),
      payload: {
        name: 'SMS failover',
        category: 'SMS',
        configs: [{ providerConfigId: c }, { providerConfigId: a, priority: 2 }, { providerConfigId: b, priority: 1 }],
      },
    });
    expect(res.statusCode).toBe(200);
    const group = res.json();
    expect(group.configs.map((m: { providerConfigId: number; priority: number }) => [m.providerConfigId, m.priority])).toEqual([
      [b, 1],
      [a, 2],
      [c, 99],
    ]);

    const list = await t.app.inject({
      method: 'GET',
      url: '/api/provider-configurations/groups?category=SMS&page=1&size=10',
      headers: headers(),
    });
    expect(list.json()).toMatchObject({ total: 1, items: [{ id: group.id, name: 'SMS failover' }] });
    const short = await t.app.inject({
      method: 'GET',
      url: '/api/provider-configurations/groups/short-info?category=SMS',
      headers: headers(),
    });
    expect(short.json()).toEqual([{ id: group.id, name: 'SMS failover', category: 'SMS' }]);

    const updated = await t.app.inject({
      method: 'PUT',
      url: '/api/provider-configurations/groups',
      headers: headers(),
      payload: { id: group.id, name: 'SMS failover', category: 'SMS', configs: [{ providerConfigId: c, priority: 1 }] },
    });
    expect(updated.json().configs).toEqual([expect.objectContaining({ providerConfigId: c, priority: 1 })]);

    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/provider-configurations/groups/${group.id}`,
      headers: headers(),
    });
    expect(removed.statusCode).toBe(200);
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/api/provider-configurations/groups/${group.id}`,
      headers: headers(),
    });
    expect(again.statusCode).toBe(404);
  });

  it('cannot be created without configs or with configs of the other category', async () => {
    const empty = await t.app.inject({
      method: 'POST',
      url: '/api/provider-configurations/groups',
      headers: headers(),
      payload: { name: 'Empty', category: 'EMAIL', configs: [] },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields[0]).toMatchObject({ field: 'configs', key: 'groups.noConfigs' });

    const sms = await config('sandbox-sms', 'SMS for mixing');
    const mixed = await t.app.inject({
      method: 'POST',
      url: '/api/provider-configurations/groups',
      headers: headers(),
      payload: { name: 'Mixed', category: 'EMAIL', configs: [{ providerConfigId: sms }] },
    });
    expect(mixed.json().fields[0]).toMatchObject({ field: 'configs.0.providerConfigId', key: 'groups.wrongCategory' });
    const groups = await t.app.inject({ method: 'GET', url: '/api/provider-configurations/groups', headers: headers() });
    expect(groups.json().items.map((g: { name: string }) => g.name)).not.toContain('Mixed');
  });

  it("keeps a group's last config from being deleted, naming the group", async () => {
    const only = await config('sandbox-email', 'Only member');
    const group = await t.app.inject({
      method: 'POST',
      url: '/api/provider-configurations/groups',
      headers: headers(),
      payload: { name: 'Lonely', category: 'EMAIL', configs: [{ providerConfigId: only }] },
    });
    const remove = () => t.app.inject({ method: 'DELETE', url: `/api/data/provider-configurations/${only}`, headers: headers() });
    const refused = await remove();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'This configuration is the only one of the group “Lonely”: add another configuration to the group or delete the group first.',
    );
    // With a second member the group goes on without it.
    const other = await config('sandbox-email', 'Second member');
    await t.app.inject({
      method: 'PUT',
      url: '/api/provider-configurations/groups',
      headers: headers(),
      payload: {
        id: group.json().id,
        name: 'Lonely',
        category: 'EMAIL',
        configs: [{ providerConfigId: only }, { providerConfigId: other }],
      },
    });
    expect((await remove()).statusCode).toBe(200);
    const listed = await t.app.inject({
      method: 'GET',
      url: '/api/provider-configurations/groups?category=EMAIL&page=1&size=10',
      headers: headers(),
    });
    const lonely = listed.json().items.find((entry: { name: string }) => entry.name === 'Lonely');
    expect(lonely.configs.map((member: { providerConfigId: number }) => member.providerConfigId)).toEqual([other]);
    expect((await remove()).statusCode).toBe(404);
  });

  it('refuses a duplicate group name', async () => {
    const email = await config('sandbox-email', 'Mail for names');
    const body = { name: 'Dup group', category: 'EMAIL', configs: [{ providerConfigId: email, priority: 1 }] };
    await t.app.inject({ method: 'POST', url: '/api/provider-configurations/groups', headers: headers(), payload: body });
    const dup = await t.app.inject({
      method: 'POST',
      url: '/api/provider-configurations/groups',
      headers: headers(),
      payload: body,
    });
    expect(dup.json().fields[0]).toMatchObject({ field: 'name', message: 'This name already exists.' });
  });
});

describe('sandbox providers', () => {
  it('are given to a new account when seeding is on, and keep what they send', async () => {
    const seeded = await createTestApp({ seed: true });
    try {
      const newcomer = await signUp(seeded.app);
      const auth = { 'x-token': newcomer.token };
      const configs = (
        await seeded.app.inject({ method: 'GET', url: '/api/data/provider-configurations/custom', headers: auth })
      ).json();
      expect(configs.map((c: { type: string }) => c.type).sort()).toEqual(['sandbox-email', 'sandbox-sms']);
      const options = (await seeded.app.inject({ method: 'GET', url: '/api/data/user-provider-options', headers: auth })).json();
      expect(options).toHaveLength(2);

      const row = await seeded.database.db
        .selectFrom('provider_configs')
        .selectAll()
        .where('type', '=', 'sandbox-sms')
        .where('id', '=', configs.find((c: { type: string }) => c.type === 'sandbox-sms').id)
        .executeTakeFirstOrThrow();
      const receipts: string[] = [];
      seeded.app.channels.onDeliveryReport((_id, report) => receipts.push(report.status));
      const channel = seeded.app.channels.get(row);
      const [result] = await channel.send([{ id: 1, to: '+79001234567', text: 'Привет' }]);
      expect(result).toMatchObject({ id: 1, accepted: true });
      const inbox = (
        await seeded.app.inject({ method: 'GET', url: '/api/data/sandbox/messages?category=SMS', headers: auth })
      ).json();
      expect(inbox).toMatchObject({ total: 1, items: [{ recipient: '+79001234567', body: 'Привет' }] });
      await new Promise((resolve) => setTimeout(resolve, 2300));
      expect(receipts).toHaveLength(1);
      const after = (await seeded.app.inject({ method: 'GET', url: '/api/data/sandbox/messages', headers: auth })).json();
      expect(['delivered', 'undelivered']).toContain(after.items[0].status);
    } finally {
      await seeded.close();
    }
  });
});
