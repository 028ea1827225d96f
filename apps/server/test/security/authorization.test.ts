/**
 * The authorization matrix, generated from the routes Fastify actually registered: every /api route refuses a
 * caller without a session, with an expired or unknown token, with the wrong role, and with another account's ids.
 * A route the matrix cannot place (a new public route, a path parameter it has no record for) fails the suite.
 */
import { hasAnyRole } from '@herald/shared';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, makeAdmin, type TestApp } from '../helpers/app.js';
import { type Account, createRecords, expiredToken, multipart, newAccount, type OwnedRecords, snapshot } from './fixtures.js';

interface RegisteredRoute {
  method: string;
  url: string;
  config: { public?: boolean; roles?: string[] };
}

const registered = vi.hoisted(() => [] as RegisteredRoute[]);

// Fastify itself is untouched: an onRoute hook, added as the instance is created, records what buildApp registers.
vi.mock('fastify', async (importOriginal) => {
  const actual = await importOriginal<typeof import('fastify')>();
  const create = ((options?: object) => {
    const app = actual.default(options);
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat())
        registered.push({ method: String(method), url: route.url, config: (route.config ?? {}) as RegisteredRoute['config'] });
    });
    return app;
  }) as unknown as typeof actual.default;
  return { ...actual, default: create };
});

/** The only routes reachable without a session, each with the reason it may be. HEAD follows GET. */
const PUBLIC_ROUTES: Record<string, string> = {
  'POST /api/login': 'logging in is how a session starts (throttled per address and IP)',
  'POST /api/data/users': 'sign-up creates the account and its first session',
  'GET /api/logout': 'ends the session it is given, if any, and answers the same without one',
  'GET /api/data/users/restore-password': 'the forgotten-password form; answers the same whether the address exists or not',
  'POST /api/data/users/reset-password': 'authorised by the single-use reset token in its body',
  'GET /api/health': 'load balancers probe it; it answers only up or down',
  'POST /api/feedback': 'the feedback button is on the public pages too; throttled per address, stored under no account',
  'GET /api/openapi.json': 'the description of the public API that /doc and the SDK are built from',
  'GET /api/data/time-zones': 'reference data the sign-up form shows before there is a session',
  'GET /api/data/languages': 'reference data the sign-up form shows before there is a session',
  'GET /api/data/countries': 'reference data the sign-up form shows before there is a session',
  'GET /api/sso/config': 'the login page asks whether single sign-on is offered and under which name',
  'GET /api/sso/start': 'redirects to the identity provider; the state it starts is bound to this browser by a cookie',
  'POST /api/sso/exchange': "authorised by the identity provider's code with the state, nonce and PKCE it started with",
  'GET /t/o/:id/:signature': 'open pixel in sent e-mail; acts only on a valid HMAC signature',
  'GET /t/c/:id/:signature': 'click redirect in sent e-mail; acts only on a valid HMAC signature',
  'GET /t/u/:id/:signature': 'unsubscribe page in sent e-mail; acts only on a valid HMAC signature',
  'POST /t/u/:id/:signature': 'one-click unsubscribe (RFC 8058); acts only on a valid HMAC signature',
};

/** The public sending API authenticates with API keys of its own, not sessions. */
const API_KEY_PREFIX = '/api/v1/';

const keyOf = (route: { method: string; url: string }) => `${route.method === 'HEAD' ? 'GET' : route.method} ${route.url}`;
const isApiKeyRoute = (route: RegisteredRoute) => route.url.startsWith(API_KEY_PREFIX);
const isSessionRoute = (route: RegisteredRoute) => route.url.startsWith('/api/') && !route.config.public && !isApiKeyRoute(route);

/** Tables without account_id that a refused request may still touch: the caller's session and key counters. */
const CHANGING_TABLES = ['sessions', 'login_failures', 'api_rate_limits'];

let t: TestApp;
let owner: Account;
let stranger: Account;
let apiProfile: Account;
let admin: Account;
let ownerRecords: OwnedRecords;
let strangerRecords: OwnedRecords;
let expired: string;
let loggedOut: string;

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  owner = await newAccount(t);
  stranger = await newAccount(t);
  apiProfile = await newAccount(t, 'api');
  admin = await newAccount(t);
  await makeAdmin(t.database, admin.email);
  ownerRecords = await createRecords(t, owner, 'a');
  strangerRecords = await createRecords(t, stranger, 'b');
  expired = await expiredToken(t, owner);
  const login = await t.app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { username: owner.email, password: owner.password },
  });
  loggedOut = login.json().token;
  await t.app.inject({ method: 'GET', url: '/api/logout', headers: { 'x-token': loggedOut } });
}, 60_000);
afterAll(async () => t.close());

/** The records a path parameter names, by the route's prefix; the owner's ids go in, the stranger calls. */
function pathIds(url: string, records: OwnedRecords): Record<string, string | number> | null {
  const table: [string, Record<string, string | number>][] = [
    ['/api/data/provider-configurations/:id', { id: records.configId }],
    ['/api/provider-configurations/groups/:id', { id: records.groupId }],
    ['/api/data/template-categories/:id', { id: records.categoryId }],
    ['/api/data/template-variables/:name', { name: records.variableName }],
    ['/api/data/templates/:name', { name: records.templateName }],
    ['/api/data/contact-lists/:id', { id: records.listId, contactId: records.contactId }],
    ['/api/data/imports/:id', { id: records.importId }],
    ['/api/data/campaigns/:id', { id: records.sentCampaignId }],
    ['/api/data/api-keys/:id', { id: records.apiKeyId }],
    ['/api/v1/messages/:id', { id: records.messageId }],
    ['/api/data/messages/:channel/:id', { id: records.messageId }],
  ];
  return table.find(([prefix]) => url.startsWith(prefix))?.[1] ?? null;
}

/** Admin-only routes over data of the whole installation (not of an account): the role matrix covers them. */
const OPERATOR_ROUTES = ['/api/data/feedback/files/:id'];

/** Path parameters that choose a view rather than name a record. */
const VIEW_PARAMS: Record<string, string> = { channel: 'email' };

const namesRecord = (url: string) => [...url.matchAll(/:([A-Za-z]+)/g)].some(([, name]) => !(name! in VIEW_PARAMS));

function fill(url: string, ids: Record<string, string | number> | null): string {
  return url.replace(/:([A-Za-z]+)/g, (_match, name: string) =>
    encodeURIComponent(String(ids?.[name] ?? VIEW_PARAMS[name] ?? 1)),
  );
}

/** A valid body for each route that takes one, naming the caller's own records, so only the path is foreign. */
function bodyFor(key: string, own: OwnedRecords): object | undefined {
  const bodies: Record<string, object> = {
    'PUT /api/data/template-categories/:id': { name: 'Renamed category' },
    'PUT /api/data/template-variables/:name': { name: 'renamed_variable', value: 'changed' },
    'PUT /api/data/templates/:name': { name: 'renamed-template', channel: 'EMAIL', subject: 'Changed', html: '<p>Changed</p>' },
    'POST /api/data/templates/:name/copy': { newName: 'copied-template' },
    'POST /api/data/templates/:name/test-send': { providerConfigId: own.sandboxEmailConfigId, to: 'probe@example.com' },
    'PUT /api/data/contact-lists/:id': { name: 'Renamed list' },
    'POST /api/data/contact-lists/:id/contacts': { email: 'intruder@example.com' },
    'POST /api/data/contact-lists/:id/contacts/bulk': { action: 'delete', filter: {} },
    'PUT /api/data/contact-lists/:id/contacts/:contactId': { email: 'changed@example.com' },
    'POST /api/data/imports/:id/preview': { separator: ';' },
    'POST /api/data/imports/:id/start': { mapping: { 0: 'email', 1: 'name' }, mode: 'replace' },
    'PUT /api/data/campaigns/:id': {
      name: 'Changed campaign',
      channel: 'EMAIL',
      listId: own.listId,
      templateName: own.templateName,
      configId: own.sandboxEmailConfigId,
    },
    'POST /api/data/campaigns/:id/start': {},
  };
  return bodies[key];
}

async function inject(
  method: string,
  url: string,
  token: string | null,
  body?: object,
  extraHeaders: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { ...extraHeaders };
  if (token !== null) headers['x-token'] = token;
  return t.app.inject({
    method: method as 'GET',
    url,
    headers,
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  });
}

/** What a refusal must look like: the status asked for and the error shape, never a success or a crash. */
function expectRefused(res: LightMyRequestResponse, status: number, what: string): void {
  expect(res.statusCode, `${what} → ${res.statusCode} ${res.body.slice(0, 300)}`).toBe(status);
  if (
    res.statusCode !== 204 &&
    res.raw.req.method !== 'HEAD' &&
    res.headers['content-type']?.toString().startsWith('application/json')
  )
    expect(res.json(), what).toMatchObject({ statusCode: status, key: expect.any(String), message: expect.any(String) });
}

describe('the route inventory', () => {
  it('has seen the routes of every domain', () => {
    expect(registered.length).toBeGreaterThan(50);
    for (const prefix of [
      '/api/data/templates',
      '/api/data/campaigns',
      '/api/data/contact-lists',
      '/api/provider-configurations',
    ]) {
      expect(
        registered.some((route) => route.url.startsWith(prefix)),
        prefix,
      ).toBe(true);
    }
  });

  it('knows why each public route is public, and nothing else is', () => {
    const publicRoutes = new Set(registered.filter((route) => route.config.public && !isApiKeyRoute(route)).map(keyOf));
    const unexplained = [...publicRoutes].filter((key) => !PUBLIC_ROUTES[key]);
    expect(unexplained, 'public routes without a reason in PUBLIC_ROUTES').toEqual([]);
    const stale = Object.keys(PUBLIC_ROUTES).filter((key) => !publicRoutes.has(key));
    expect(stale, 'PUBLIC_ROUTES entries that are no longer public routes').toEqual([]);
  });

  it('leaves no route outside /api unguarded unless it is public', () => {
    const outside = registered.filter((route) => !route.url.startsWith('/api/') && !route.config.public).map(keyOf);
    expect(outside).toEqual([]);
  });

  it('puts no role restriction on a public route (it would never be checked)', () => {
    const both = registered.filter((route) => route.config.public && route.config.roles?.length).map(keyOf);
    expect(both).toEqual([]);
  });
});

describe('every session route', () => {
  const sessionRoutes = () => registered.filter(isSessionRoute);

  it('refuses a caller without a token, with an unknown, an expired or a logged-out one', async () => {
    expect(sessionRoutes().length).toBeGreaterThan(40);
    for (const route of sessionRoutes()) {
      const url = fill(route.url, pathIds(route.url, ownerRecords));
      for (const [label, token] of [
        ['no token', null],
        ['unknown token', 'x'.repeat(43)],
        ['expired token', expired],
        ['logged-out token', loggedOut],
        ['oversized token', 'y'.repeat(5000)],
      ] as const) {
        const res = await inject(route.method, url, token, route.method === 'GET' || route.method === 'HEAD' ? undefined : {});
        expect(res.statusCode, `${keyOf(route)} with ${label}: ${res.body.slice(0, 200)}`).toBe(401);
      }
    }
  });

  it('refuses a session whose roles the route does not allow', async () => {
    const tokens = [
      { token: owner.token, roles: ['site'] },
      { token: apiProfile.token, roles: ['api'] },
      { token: admin.token, roles: ['site', 'admin'] },
    ];
    let checked = 0;
    for (const route of sessionRoutes().filter((r) => r.config.roles?.length)) {
      const url = fill(route.url, pathIds(route.url, ownerRecords));
      for (const { token, roles } of tokens) {
        if (hasAnyRole(roles, route.config.roles)) continue;
        const body = route.method === 'GET' || route.method === 'HEAD' ? undefined : {};
        expectRefused(await inject(route.method, url, token, body), 403, `${keyOf(route)} as ${roles.join('+')}`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('is decided by the route matched, not by how the path is spelled', async () => {
    for (const route of sessionRoutes()) {
      const url = fill(route.url, pathIds(route.url, ownerRecords));
      for (const spelling of [url.replace('/api/', '/%61pi/'), url.replace('/api/', '/ap%69/')]) {
        const res = await inject(
          route.method,
          spelling,
          null,
          route.method === 'GET' || route.method === 'HEAD' ? undefined : {},
        );
        expect([401, 404], `${route.method} ${spelling}: ${res.statusCode}`).toContain(res.statusCode);
      }
    }
    const adminOnly = await inject('GET', '/%61pi/data/system-outbox', owner.token);
    expectRefused(adminOnly, 403, 'an admin route spelled with an escape, as a non-admin');
  });
});

describe('every route naming a record', () => {
  it('answers 400 or 404 for an id no column holds, never an internal error', async () => {
    const routes = registered.filter(
      (route) =>
        (isSessionRoute(route) || isApiKeyRoute(route)) && namesRecord(route.url) && ['GET', 'DELETE'].includes(route.method),
    );
    expect(routes.length).toBeGreaterThan(10);
    for (const route of routes) {
      for (const id of [
        '9223372036854775808',
        '99999999999999999999',
        '1e30',
        '2147483648',
        '0',
        '-1',
        '1.5',
        'NaN',
        '%00',
        "1'",
      ]) {
        const url = route.url.replace(/:([A-Za-z]+)/g, (_match, name: string) => (name in VIEW_PARAMS ? VIEW_PARAMS[name]! : id));
        const headers: Record<string, string> = isApiKeyRoute(route)
          ? { authorization: `Bearer ${ownerRecords.apiKey}` }
          : { 'x-token': hasAnyRole(['site'], route.config.roles) ? owner.token : ownerRecords.apiToken };
        if (route.config.roles?.length && !hasAnyRole(['site', 'api'], route.config.roles)) headers['x-token'] = admin.token;
        const res = await inject(route.method, url, null, undefined, headers);
        expect([400, 404], `${route.method} ${url}: ${res.statusCode} ${res.body.slice(0, 200)}`).toContain(res.statusCode);
      }
    }
  });
});

describe('every API-key route', () => {
  it('refuses a caller without a key, with a session token, an unknown or a revoked key', async () => {
    const routes = registered.filter(isApiKeyRoute);
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) {
      const url = fill(route.url, pathIds(route.url, ownerRecords));
      for (const [label, headers] of [
        ['no key', {}],
        ['a session token', { 'x-token': owner.token }],
        ['a session token as bearer', { authorization: `Bearer ${owner.token}` }],
        ['an unknown key', { authorization: `Bearer hk_${'x'.repeat(40)}` }],
        ['an unknown key header', { 'x-api-key': `hk_${'x'.repeat(40)}` }],
        ['a revoked key', { authorization: `Bearer ${ownerRecords.revokedApiKey}` }],
        ['an oversized key', { authorization: `Bearer ${'k'.repeat(5000)}` }],
      ] as const) {
        const body = route.method === 'GET' || route.method === 'HEAD' ? undefined : {};
        expectRefused(await inject(route.method, url, null, body, headers), 401, `${keyOf(route)} with ${label}`);
      }
    }
  });
});

describe("another account's records", () => {
  it('are 404 on every route with a path parameter, and nothing changes', async () => {
    const before = await snapshot(t.database, owner.accountId, CHANGING_TABLES);
    const routes = registered.filter((route) => (isSessionRoute(route) || isApiKeyRoute(route)) && namesRecord(route.url));
    expect(routes.length).toBeGreaterThan(20);
    const unplaced: string[] = [];
    for (const route of routes) {
      if (OPERATOR_ROUTES.includes(route.url)) continue;
      const ids = pathIds(route.url, ownerRecords);
      if (!ids) {
        unplaced.push(keyOf(route));
        continue;
      }
      const url = fill(route.url, ids);
      const what = `${keyOf(route)} as another account`;
      let res: LightMyRequestResponse;
      if (isApiKeyRoute(route)) {
        const body = route.method === 'GET' ? undefined : {};
        res = await inject(route.method, url, null, body, { authorization: `Bearer ${strangerRecords.apiKey}` });
      } else if (keyOf(route) === 'POST /api/data/contact-lists/:id/imports') {
        const upload = await multipart({}, { name: 'x.csv', content: 'email\nx@example.com\n', type: 'text/csv' });
        res = await inject(route.method, url, stranger.token, upload.payload as unknown as object, {
          'content-type': upload.contentType,
        });
      } else {
        // The stranger calls with whichever of its profiles the route allows.
        const token = hasAnyRole(['site'], route.config.roles) ? stranger.token : strangerRecords.apiToken;
        const body =
          route.method === 'GET' || route.method === 'HEAD' ? undefined : (bodyFor(keyOf(route), strangerRecords) ?? {});
        res = await inject(route.method, url, token, body);
      }
      expectRefused(res, 404, `${what} (if 400, give it a valid body in bodyFor)`);
    }
    expect(unplaced, 'routes with path parameters that pathIds has no record for').toEqual([]);
    expect(await snapshot(t.database, owner.accountId, CHANGING_TABLES)).toEqual(before);
  });

  it('are found by their owner on the same reading routes (the ids above are real)', async () => {
    const routes = registered.filter((route) => isSessionRoute(route) && route.method === 'GET' && namesRecord(route.url));
    for (const route of routes) {
      if (OPERATOR_ROUTES.includes(route.url)) continue;
      const res = await inject('GET', fill(route.url, pathIds(route.url, ownerRecords)), owner.token);
      // A report exists only once an import has run.
      if (route.url.endsWith('/report.csv')) expect(res.statusCode).toBe(404);
      else expect(res.statusCode, `${keyOf(route)}: ${res.body.slice(0, 200)}`).toBe(200);
    }
  });

  it('cannot be reached through ids in a body or a query either', async () => {
    const a = ownerRecords;
    const b = strangerRecords;
    const before = await snapshot(t.database, owner.accountId, CHANGING_TABLES);
    const smtp = { type: 'smtp', settings: { host: '127.0.0.1', port: 2525, security: 'none', senderEmail: 'b@herald.test' } };
    const attempts: { method: string; url: string; body?: object; accept?: (res: LightMyRequestResponse) => boolean }[] = [
      { method: 'PUT', url: '/api/data/provider-configurations', body: { id: a.configId, name: 'Taken', ...smtp } },
      { method: 'POST', url: '/api/data/provider-configurations/test', body: { id: a.configId, name: 'Probe', ...smtp } },
      {
        method: 'POST',
        url: '/api/data/provider-configurations/balances',
        body: { ids: [a.configId, a.sandboxEmailConfigId] },
        accept: (res) => res.statusCode === 200 && res.json().length === 0,
      },
      { method: 'POST', url: '/api/data/user-provider-options', body: { providerConfigId: a.sandboxEmailConfigId } },
      {
        method: 'PUT',
        url: '/api/provider-configurations/groups',
        body: { id: a.groupId, name: 'Taken', category: 'EMAIL', configs: [{ providerConfigId: b.configId }] },
      },
      {
        method: 'POST',
        url: '/api/provider-configurations/groups',
        body: { name: 'Borrowed', category: 'EMAIL', configs: [{ providerConfigId: a.configId }] },
      },
      { method: 'POST', url: '/api/data/template-categories/current', body: { categoryId: a.categoryId } },
      {
        method: 'POST',
        url: '/api/data/templates',
        body: { name: 'in-foreign-category', categoryId: a.categoryId, channel: 'EMAIL', subject: 'x', html: '<p>x</p>' },
      },
      { method: 'POST', url: '/api/data/templates/preview', body: { name: a.templateName } },
      { method: 'POST', url: '/api/data/templates/preview', body: { name: b.templateName, contactId: a.contactId } },
      {
        method: 'POST',
        url: `/api/data/templates/${b.templateName}/test-send`,
        body: { providerConfigId: a.configId, to: 'probe@example.com' },
      },
      {
        method: 'POST',
        url: `/api/data/templates/${b.templateName}/test-send`,
        body: { providerConfigId: b.sandboxEmailConfigId, to: 'probe@example.com', contactId: a.contactId },
      },
      {
        method: 'POST',
        url: '/api/data/campaigns',
        body: {
          name: 'Foreign list',
          channel: 'EMAIL',
          listId: a.listId,
          templateName: b.templateName,
          configId: b.sandboxEmailConfigId,
        },
      },
      {
        method: 'POST',
        url: '/api/data/campaigns',
        body: { name: 'Foreign config', channel: 'EMAIL', listId: b.listId, templateName: b.templateName, configId: a.configId },
      },
      {
        method: 'POST',
        url: '/api/data/campaigns',
        body: { name: 'Foreign group', channel: 'EMAIL', listId: b.listId, templateName: b.templateName, groupId: a.groupId },
      },
      {
        method: 'POST',
        url: '/api/data/campaigns',
        body: { name: 'Foreign template', channel: 'EMAIL', listId: b.listId, templateName: a.templateName },
      },
      {
        method: 'PUT',
        url: `/api/data/campaigns/${b.draftCampaignId}`,
        body: {
          name: 'Moved',
          channel: 'EMAIL',
          listId: a.listId,
          templateName: b.templateName,
          configId: b.sandboxEmailConfigId,
        },
      },
      {
        method: 'POST',
        url: `/api/data/contact-lists/${b.listId}/contacts/bulk`,
        body: { action: 'delete', ids: [a.contactId] },
        accept: (res) => res.statusCode === 200 && res.json().affected === 0,
      },
      { method: 'GET', url: `/api/data/contact-lists/${b.listId}/contacts/${a.contactId}` },
      { method: 'DELETE', url: `/api/data/contact-lists/${b.listId}/contacts/${a.contactId}` },
      { method: 'PUT', url: `/api/data/contact-lists/${b.listId}/contacts/${a.contactId}`, body: { email: 'x@example.com' } },
    ];
    for (const attempt of attempts) {
      const res = await inject(attempt.method, attempt.url, stranger.token, attempt.body);
      const what = `${attempt.method} ${attempt.url} ${JSON.stringify(attempt.body ?? {})} → ${res.statusCode} ${res.body.slice(0, 300)}`;
      if (attempt.accept?.(res)) continue;
      expect(res.statusCode, what).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, what).toBeLessThan(500);
      expect(res.body, what).not.toContain(`reader-a@example.com`);
      expect(res.body, what).not.toContain(a.secret);
    }
    expect(await snapshot(t.database, owner.accountId, CHANGING_TABLES)).toEqual(before);
  });

  it('filter a query exactly as an id that does not exist would', async () => {
    const a = ownerRecords;
    const missing = 999_999;
    const queries: [string, Record<string, number>][] = [
      ['/api/data/messages/email', { campaignId: a.sentCampaignId }],
      ['/api/data/messages/email', { configId: a.sandboxEmailConfigId }],
      ['/api/data/statistics/email/reports', { category: a.categoryId }],
      ['/api/data/statistics/email/reports.csv', { category: a.categoryId }],
    ];
    for (const [path, params] of queries) {
      const withForeign = await inject(
        'GET',
        `${path}?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`,
        stranger.token,
      );
      const withMissing = await inject(
        'GET',
        `${path}?${new URLSearchParams(Object.keys(params).map((k) => [k, String(missing)]))}`,
        stranger.token,
      );
      const what = `${path} ${JSON.stringify(params)}`;
      expect(withForeign.statusCode, what).toBe(withMissing.statusCode);
      expect(withForeign.body, what).toBe(withMissing.body);
      expect(withForeign.body, what).not.toContain('reader-a@example.com');
    }
  });
});
