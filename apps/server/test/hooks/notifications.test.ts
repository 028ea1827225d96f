import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CampaignContent } from '../../src/campaigns/content.js';
import { Dispatcher } from '../../src/engine/dispatcher.js';
import { HookWorker, MAX_DELIVERY_ATTEMPTS } from '../../src/hooks/worker.js';
import { balances, listConfigs } from '../../src/providers/service.js';
import { accountIdOf } from '../engine/helpers.js';
import { createTestApp, signUp, type TestApp } from '../helpers/app.js';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink.js';
import { type SlackReceiver, startSlackReceiver } from './slack-receiver.js';

let t: TestApp;
let slack: SlackReceiver;
let worker: HookWorker;
let refusingSink: SmtpSink;

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  slack = await startSlackReceiver();
  refusingSink = await startSmtpSink({ rejectRecipient: () => ({ code: 550, text: 'No such user' }) });
  // Short timeout and backoff so retries happen within a test; the app's own worker keeps production values.
  worker = new HookWorker({ db: t.database.db, secretKey: t.config.secret, pollMs: 100, timeoutMs: 800, backoffMs: 300 });
  worker.start();
});
afterAll(async () => {
  await worker.stop();
  await t.close();
  await slack.close();
  await refusingSink.close();
});

interface Account {
  accountId: number;
  email: string;
  headers: Record<string, string>;
}

async function newAccount(language: 'en' | 'ru' | 'uk' = 'en'): Promise<Account> {
  const user = await signUp(t.app);
  // Slack texts follow the language saved on the account.
  await t.database.db.updateTable('accounts').set({ language }).where('email', '=', user.email).execute();
  return {
    accountId: await accountIdOf(t, user.email),
    email: user.email,
    headers: { 'x-token': user.token, 'accept-language': language },
  };
}

async function saveHooks(account: Account, body: Record<string, unknown>) {
  return t.app.inject({
    method: 'PUT',
    url: '/api/data/hooks/settings',
    headers: account.headers,
    payload: { senderName: 'Herald bot', events: [], balanceThreshold: null, ...body },
  });
}

async function deliveries(account: Account) {
  const res = await t.app.inject({ method: 'GET', url: '/api/data/hooks/deliveries?size=100', headers: account.headers });
  expect(res.statusCode).toBe(200);
  return res.json().items as {
    event: string;
    text: string;
    status: string;
    attempts: number;
    responseStatus: number | null;
    error: string | null;
  }[];
}

async function until<T>(what: string, read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function configId(account: Account, name: string): Promise<number> {
  const res = await t.app.inject({ method: 'GET', url: '/api/data/provider-configurations/custom', headers: account.headers });
  return res.json().find((config: { name: string }) => config.name === name).id;
}

async function campaign(account: Account, size: number, config: number, emailOf = (i: number) => `r${i}@example.com`) {
  const now = Date.now();
  const list = await t.database.db
    .insertInto('contact_lists')
    .values({ account_id: account.accountId, name: `List ${now}-${Math.random()}`, created_at: now, updated_at: now } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  await t.database.db
    .insertInto('contacts')
    .values(
      Array.from({ length: size }, (_, i) => ({
        account_id: account.accountId,
        list_id: Number(list.id),
        email: emailOf(i),
        status: 'active',
        created_at: now,
        updated_at: now,
      })) as never,
    )
    .execute();
  const template = await t.app.inject({
    method: 'POST',
    url: '/api/data/templates',
    headers: account.headers,
    payload: { name: `t-${account.accountId}-${size}-${now}`, channel: 'EMAIL', subject: 'Hi', html: '<p>Hello</p>' },
  });
  expect(template.statusCode).toBe(200);
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/data/campaigns',
    headers: account.headers,
    payload: {
      name: `Autumn ${size}`,
      channel: 'EMAIL',
      listId: Number(list.id),
      templateName: template.json().name,
      configId: config,
    },
  });
  expect(created.statusCode).toBe(200);
  const id = created.json().id as number;
  const started = await t.app.inject({
    method: 'POST',
    url: `/api/data/campaigns/${id}/start`,
    headers: account.headers,
    payload: {},
  });
  expect(started.json().state).toBe('sending');
  return id;
}

function dispatcher(batchSize = 200): Dispatcher {
  return new Dispatcher({
    batchSize,
    db: t.database.db,
    dialect: t.database.dialect,
    pool: t.app.channels,
    content: new CampaignContent(t.database.db, t.app.tracking),
    owner: 'hooks-test',
  });
}

async function runCampaign(id: number, until: (state: string) => boolean): Promise<string> {
  const engine = dispatcher();
  for (let round = 0; round < 200; round++) {
    await t.app.campaigns.tick();
    const claimed = await engine.runOnce();
    const row = await t.database.db.selectFrom('campaigns').select('state').where('id', '=', id).executeTakeFirstOrThrow();
    if (claimed === 0 && until(row.state)) return row.state;
  }
  throw new Error('campaign did not settle');
}

describe('notification settings', () => {
  it('refuses a Slack URL that is not https with a field error in the user language, and saves nothing', async () => {
    const account = await newAccount('ru');
    for (const slackUrl of ['http://hooks.slack.com/services/T1/B2/C3', 'ftp://hooks.slack.com/x', 'hooks.slack.com/x']) {
      const res = await saveHooks(account, { slackUrl, events: ['campaign.finished'] });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields).toEqual([
        { field: 'slackUrl', key: 'hooks.slackUrlHttps', message: 'Введите адрес вебхука Slack, начинающийся с https://' },
      ]);
    }
    const uk = await saveHooks(
      { ...account, headers: { ...account.headers, 'accept-language': 'uk' } },
      { slackUrl: 'http://x.test/' },
    );
    expect(uk.json().fields[0].message).toBe('Введіть адресу вебхука Slack, що починається з https://');
    const saved = await t.app.inject({ method: 'GET', url: '/api/data/hooks/settings', headers: account.headers });
    expect(saved.json()).toMatchObject({ configured: false, slackUrl: null });
    expect(
      await t.database.db.selectFrom('hook_settings').selectAll().where('account_id', '=', account.accountId).execute(),
    ).toEqual([]);
  });

  it('refuses an empty sender name and an unknown event, naming the fields', async () => {
    const account = await newAccount();
    const res = await saveHooks(account, {
      slackUrl: 'https://hooks.slack.com/services/T1/B2/C3',
      senderName: ' ',
      events: ['nope'],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.map((f: { field: string; key: string }) => [f.field, f.key])).toEqual([
      ['senderName', 'validation.mandatory'],
      ['events', 'hooks.unknownEvent'],
    ]);
  });

  it('keeps the URL sealed at rest and shows only its host and last characters', async () => {
    const account = await newAccount();
    const url = 'https://hooks.slack.com/services/T000/B000/SECRETXYZ1234';
    const res = await saveHooks(account, { slackUrl: url, events: ['campaign.started', 'balance.low'], balanceThreshold: 12.5 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      slackUrl: 'https://hooks.slack.com/…1234',
      configured: true,
      senderName: 'Herald bot',
      events: ['campaign.started', 'balance.low'],
      balanceThreshold: 12.5,
    });
    const row = await t.database.db
      .selectFrom('hook_settings')
      .selectAll()
      .where('account_id', '=', account.accountId)
      .executeTakeFirstOrThrow();
    expect(row.slack_url).not.toContain('SECRET');
    // Saving without slackUrl keeps it; null removes it.
    expect((await saveHooks(account, { events: [] })).json().configured).toBe(true);
    expect((await saveHooks(account, { slackUrl: null, events: [] })).json()).toMatchObject({
      configured: false,
      slackUrl: null,
    });
  });

  it('posts a test message now in the JSON Slack expects, and logs a failing test too', async () => {
    const account = await newAccount('uk');
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/data/hooks/test',
      headers: account.headers,
      payload: { slackUrl: slack.url('/ok-test'), senderName: 'Ops' },
    });
    expect(ok.json()).toEqual({ ok: true, status: 200, error: null });
    const [post] = slack.postsTo('/ok-test');
    expect(post?.contentType).toBe('application/json');
    expect(post?.body).toEqual({ text: expect.stringContaining('Тестове сповіщення Herald'), username: 'Ops' });

    const failing = await t.app.inject({
      method: 'POST',
      url: '/api/data/hooks/test',
      headers: account.headers,
      payload: { slackUrl: slack.url('/fail-test') },
    });
    expect(failing.json()).toEqual({ ok: false, status: 500, error: 'server_error' });
    expect(await deliveries(account)).toMatchObject([
      { event: 'test', status: 'failed', responseStatus: 500, error: 'server_error', attempts: 1 },
      { event: 'test', status: 'sent', responseStatus: 200, attempts: 1 },
    ]);

    const none = await t.app.inject({ method: 'POST', url: '/api/data/hooks/test', headers: account.headers, payload: {} });
    expect(none.statusCode).toBe(400);
    expect(none.json().fields[0]).toMatchObject({ field: 'slackUrl', key: 'hooks.notConfigured' });
  });

  it('keeps one account out of another account’s delivery log', async () => {
    const owner = await newAccount();
    await t.app.inject({
      method: 'POST',
      url: '/api/data/hooks/test',
      headers: owner.headers,
      payload: { slackUrl: slack.url('/ok-own') },
    });
    const other = await newAccount();
    expect(await deliveries(other)).toEqual([]);
  });
});

describe('notifications from the engine', () => {
  it('announces a campaign start and finish in the background while a hanging and a failing Slack never hold up sending', async () => {
    const flaky = await newAccount();
    await saveHooks(flaky, { slackUrl: slack.url('/flaky-2-a'), events: ['campaign.started', 'campaign.finished'] });
    const hanging = await newAccount();
    await saveHooks(hanging, { slackUrl: slack.url('/hang-a'), events: ['campaign.started', 'campaign.finished'] });
    const broken = await newAccount();
    await saveHooks(broken, { slackUrl: slack.url('/fail-a'), events: ['campaign.started'] });

    const ids = [
      await campaign(flaky, 30, await configId(flaky, 'Sandbox e-mail')),
      await campaign(hanging, 30, await configId(hanging, 'Sandbox e-mail')),
      await campaign(broken, 30, await configId(broken, 'Sandbox e-mail')),
    ];
    const startedAt = Date.now();
    for (const id of ids) expect(await runCampaign(id, (state) => state === 'sent')).toBe('sent');
    // Ninety messages went out while Slack hung and failed: nothing waited on the 800 ms Slack timeout per message.
    expect(Date.now() - startedAt).toBeLessThan(60_000);

    const flakyLog = await until(
      'the flaky endpoint to take both notices',
      () => deliveries(flaky),
      (items) => items.length === 2 && items.every((item) => item.status === 'sent'),
    );
    expect(flakyLog.map((item) => item.event).sort()).toEqual(['campaign.finished', 'campaign.started']);
    expect(flakyLog.reduce((sum, item) => sum + item.attempts, 0)).toBe(4);
    const posts = slack.postsTo('/flaky-2-a');
    expect(posts).toHaveLength(4);
    for (const post of posts)
      expect(post.body).toEqual({ text: expect.stringMatching(/Campaign "Autumn 30" \(#\d+\)/), username: 'Herald bot' });
    expect(posts.map((post) => post.body.text)).toContain(`Campaign "Autumn 30" (#${ids[0]}) has finished: 30 sent, 0 failed.`);

    const hangingLog = await until(
      'the hanging endpoint to time out',
      () => deliveries(hanging),
      (items) => items.length === 2 && items.every((item) => item.attempts >= 1 && item.error !== null),
    );
    for (const item of hangingLog)
      expect(item).toMatchObject({ status: 'pending', error: 'no answer within 800 ms', responseStatus: null });

    const brokenLog = await until(
      'the failing endpoint to be given up',
      () => deliveries(broken),
      (items) => items.length === 1 && items[0]!.status === 'failed',
      30_000,
    );
    expect(brokenLog[0]).toMatchObject({ event: 'campaign.started', attempts: MAX_DELIVERY_ATTEMPTS, responseStatus: 500 });
  }, 90_000);

  it('pauses a campaign whose messages mostly fail, says why, and notifies once', async () => {
    const account = await newAccount('ru');
    await saveHooks(account, { slackUrl: slack.url('/ok-pause'), events: ['campaign.autoPaused', 'campaign.finished'] });
    const smtp = await t.app.inject({
      method: 'POST',
      url: '/api/data/provider-configurations',
      headers: account.headers,
      payload: {
        name: 'Refusing',
        type: 'smtp',
        settings: { host: '127.0.0.1', port: refusingSink.port, security: 'none', senderEmail: 'news@herald.test' },
      },
    });
    expect(smtp.statusCode).toBe(200);
    const id = await campaign(account, 60, smtp.json().id);
    // Small batches, so the supervisor looks between them as it would during a big campaign.
    const engine = dispatcher(20);
    let state = 'sending';
    for (let round = 0; round < 100 && state === 'sending'; round++) {
      await t.app.campaigns.tick();
      await engine.runOnce();
      // The failure check runs every 2 s of supervisor time.
      await t.app.campaigns.tick(Date.now() + 5000);
      state = (await t.database.db.selectFrom('campaigns').select('state').where('id', '=', id).executeTakeFirstOrThrow()).state;
    }
    const row = await t.database.db.selectFrom('campaigns').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.state).toBe('paused');
    // The reason is kept as a message key with its figures and shown in the reader's language.
    expect(row.detail).toBe('campaigns.autoPaused');
    const { failed, settled } = JSON.parse(row.detail_params ?? '{}') as { failed: number; settled: number };
    expect(failed).toBeGreaterThanOrEqual(settled * 0.8);
    const shown = async (language: string) =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/data/campaigns/${id}`,
          headers: { ...account.headers, 'accept-language': language },
        })
      ).json().detail;
    expect(await shown('en')).toBe(
      `Paused automatically: ${failed} of the last ${settled} messages failed. Check the provider configurations, then resume the campaign.`,
    );
    expect(await shown('ru')).toMatch(new RegExp(`^Приостановлена автоматически: ${failed} из последних ${settled} сообщений`));
    expect(await shown('uk')).toMatch(new RegExp(`^Призупинено автоматично: ${failed} з останніх ${settled} повідомлень`));
    const log = await until(
      'the pause notice',
      () => deliveries(account),
      (items) => items.some((item) => item.status === 'sent'),
    );
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ event: 'campaign.autoPaused', status: 'sent' });
    expect(slack.postsTo('/ok-pause')[0]?.body.text).toMatch(
      /^Рассылка «Autumn 60» \(#\d+\) автоматически приостановлена: \d+ из последних \d+/,
    );
  }, 60_000);

  it('tells once per config and day when a day limit is reached', async () => {
    const account = await newAccount();
    await saveHooks(account, { slackUrl: slack.url('/ok-limit'), events: ['limit.reached'] });
    const sandbox = await configId(account, 'Sandbox e-mail');
    const current = (
      await t.app.inject({ method: 'GET', url: `/api/data/provider-configurations/${sandbox}`, headers: account.headers })
    ).json();
    const limited = await t.app.inject({
      method: 'PUT',
      url: '/api/data/provider-configurations',
      headers: account.headers,
      payload: { id: sandbox, name: current.name, type: current.type, settings: current.settings, limitPerDay: 5 },
    });
    expect(limited.statusCode).toBe(200);
    const id = await campaign(account, 12, sandbox);
    const engine = dispatcher();
    for (let round = 0; round < 5; round++) {
      await t.app.campaigns.tick();
      await engine.runOnce();
    }
    const sent = await t.database.db.selectFrom('messages').select('status').where('campaign_id', '=', id).execute();
    expect(sent.filter((m) => m.status === 'sent').length).toBe(5);
    const log = await until(
      'the limit notice',
      () => deliveries(account),
      (items) => items[0]?.status === 'sent',
    );
    expect(log).toHaveLength(1);
    expect(log[0]!.text).toBe(
      'Provider config "Sandbox e-mail" has reached its daily limit; further messages wait or go to the next config.',
    );
  });

  it('tells when a provider starts failing (circuit breaker open)', async () => {
    const account = await newAccount();
    await saveHooks(account, { slackUrl: slack.url('/ok-failing'), events: ['provider.failing'] });
    const dead = await t.app.inject({
      method: 'POST',
      url: '/api/data/provider-configurations',
      headers: account.headers,
      // Nothing listens on port 9 of loopback: every send is a transient connection failure.
      payload: {
        name: 'Dead relay',
        type: 'smtp',
        settings: { host: '127.0.0.1', port: 9, security: 'none', senderEmail: 'a@herald.test' },
      },
    });
    expect(dead.statusCode).toBe(200);
    await campaign(account, 8, dead.json().id);
    const engine = dispatcher();
    await t.app.campaigns.tick();
    await engine.runOnce();
    const log = await until(
      'the failing notice',
      () => deliveries(account),
      (items) => items[0]?.status === 'sent',
    );
    expect(log).toHaveLength(1);
    expect(log[0]!.text).toMatch(/^Provider config "Dead relay" is failing \(\d+ failures in a row\)/);
  });

  it('tells when a balance is under the account threshold, once a day per config', async () => {
    const account = await newAccount();
    await saveHooks(account, { slackUrl: slack.url('/ok-balance'), events: ['balance.low'], balanceThreshold: 2000 });
    const sandbox = await configId(account, 'Sandbox e-mail');
    for (let i = 0; i < 2; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/data/provider-configurations/balances',
        headers: account.headers,
        payload: { ids: [sandbox] },
      });
      expect(res.json()[0]).toMatchObject({ balance: 1000, currency: 'SBX' });
      // Past the one-minute cache, so the provider is asked again.
      await t.database.db.updateTable('provider_balances').set({ checked_at: 0 }).where('config_id', '=', sandbox).execute();
    }
    const log = await until(
      'the balance notice',
      () => deliveries(account),
      (items) => items[0]?.status === 'sent',
    );
    expect(log).toHaveLength(1);
    expect(log[0]!.text).toBe('The balance of provider config "Sandbox e-mail" is 1000 SBX, under your threshold of 2000.');

    const above = await newAccount();
    await saveHooks(above, { slackUrl: slack.url('/ok-balance-above'), events: ['balance.low'], balanceThreshold: 10 });
    await t.app.inject({
      method: 'POST',
      url: '/api/data/provider-configurations/balances',
      headers: above.headers,
      payload: { ids: [await configId(above, 'Sandbox e-mail')] },
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await deliveries(above)).toEqual([]);
  });

  it('reads the balances of accounts that watch them in the background, without being asked', async () => {
    const account = await newAccount();
    await saveHooks(account, { slackUrl: slack.url('/ok-balance-round'), events: ['balance.low'], balanceThreshold: 5000 });
    const deps = { db: t.database.db, pool: t.app.channels, secretKey: t.config.secret };
    const rounds: number[] = [];
    const balanceWorker = new HookWorker({
      db: t.database.db,
      secretKey: t.config.secret,
      pollMs: 100,
      checkBalances: async (accountId) => {
        rounds.push(accountId);
        const configs = await listConfigs(deps, accountId);
        await balances(
          deps,
          accountId,
          configs.map((config) => config.id),
        );
      },
    });
    balanceWorker.start();
    try {
      const log = await until(
        'the background balance notice',
        () => deliveries(account),
        (items) => items.length === 2,
      );
      expect(log.map((item) => item.text).sort()).toEqual([
        'The balance of provider config "Sandbox SMS" is 1000 SBX, under your threshold of 5000.',
        'The balance of provider config "Sandbox e-mail" is 1000 SBX, under your threshold of 5000.',
      ]);
      expect(rounds).toContain(account.accountId);
    } finally {
      await balanceWorker.stop();
    }
  });
});
