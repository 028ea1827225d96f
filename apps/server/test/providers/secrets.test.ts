import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from '../helpers/app.js';
import { type FakeTwilio, startFakeTwilio } from '../helpers/fake-twilio.js';

let t: TestApp;
let twilio: FakeTwilio;
let user: { token: string };
const headers = () => ({ 'x-token': user.token });
const logLines: string[] = [];

beforeAll(async () => {
  twilio = await startFakeTwilio({ balance: '42.50', currency: 'USD' });
  t = await createTestApp();
  user = await signUp(t.app);
});
afterAll(async () => {
  await t.close();
  await twilio.close();
});

function twilioBody(over: Record<string, unknown> = {}) {
  return {
    name: 'Twilio main',
    type: 'twilio',
    settings: { accountSid: twilio.accountSid, authToken: twilio.authToken, from: '+15005550006', baseUrl: twilio.baseUrl },
    ...over,
  };
}

describe('provider secrets', () => {
  it('are encrypted at rest, never returned, and kept by a PUT that leaves them blank', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/data/provider-configurations',
      headers: headers(),
      payload: twilioBody(),
    });
    expect(created.statusCode).toBe(200);
    const config = created.json();
    expect(created.body).not.toContain(twilio.authToken);
    expect(config.secrets.authToken).toEqual({ set: true, mask: '••••••••' });
    expect(config.settings).not.toHaveProperty('authToken');

    const row = await t.database.db
      .selectFrom('provider_configs')
      .selectAll()
      .where('id', '=', config.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(twilio.authToken);

    const updated = await t.app.inject({
      method: 'PUT',
      url: '/api/data/provider-configurations',
      headers: headers(),
      payload: twilioBody({ id: config.id, name: 'Twilio renamed', settings: { ...twilioBody().settings, authToken: '' } }),
    });
    expect(updated.json().secrets.authToken.set).toBe(true);

    const verify = await t.app.inject({
      method: 'POST',
      url: '/api/data/provider-configurations/test',
      headers: headers(),
      payload: twilioBody({ id: config.id, settings: { ...twilioBody().settings, authToken: '' } }),
    });
    expect(verify.json()).toMatchObject({ ok: true });

    const balances = await t.app.inject({
      method: 'POST',
      url: '/api/data/provider-configurations/balances',
      headers: headers(),
      payload: { ids: [config.id] },
    });
    expect(balances.json()[0]).toMatchObject({ balance: 42.5, currency: 'USD' });

    for (const url of ['/api/data/provider-configurations/custom', `/api/data/provider-configurations/${config.id}`]) {
      const res = await t.app.inject({ method: 'GET', url, headers: headers() });
      expect(res.body).not.toContain(twilio.authToken);
    }
  });

  it('reports a wrong token precisely when testing the connection', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/data/provider-configurations/test',
      headers: headers(),
      payload: twilioBody({ settings: { ...twilioBody().settings, authToken: 'wrong-token' } }),
    });
    expect(res.json().ok).toBe(false);
    expect(res.json().message).toMatch(/20003|authentic/i);
  });

  it('never writes a secret into the log', async () => {
    const logged = await createTestApp({ logLevel: 'trace' });
    const stream = { write: (line: string) => logLines.push(line) };
    const { buildApp } = await import('../../src/app.js');
    const app = await buildApp({ config: logged.config, database: logged.database, logger: { level: 'trace', stream } });
    try {
      const newcomer = await signUp(app);
      await app.inject({
        method: 'POST',
        url: '/api/data/provider-configurations',
        headers: { 'x-token': newcomer.token },
        payload: twilioBody(),
      });
      await app.inject({
        method: 'POST',
        url: '/api/data/provider-configurations/test',
        headers: { 'x-token': newcomer.token },
        payload: twilioBody(),
      });
      expect(logLines.length).toBeGreaterThan(0);
      const all = logLines.join('\n');
      expect(all).not.toContain(twilio.authToken);
      expect(all).not.toContain(newcomer.token);
      expect(all).not.toContain(newcomer.password);
    } finally {
      await app.close();
      await logged.close();
    }
  });
});
