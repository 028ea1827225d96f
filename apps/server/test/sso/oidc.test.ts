import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SSO_STATE_COOKIE } from '../../src/sso/routes.js';
import { createTestApp, signUp, type TestApp } from '../helpers/app.js';
import { type IdentityProvider, startIdentityProvider } from './identity-provider.js';

const PUBLIC_URL = 'http://herald.test';
const REDIRECT_URI = `${PUBLIC_URL}/authredirect`;

let idp: IdentityProvider;
let t: TestApp;
let plain: TestApp;

beforeAll(async () => {
  idp = await startIdentityProvider(REDIRECT_URI, {
    'unverified@example.com': { email: 'unverified@example.com', emailVerified: false },
    'mixed-case': { email: 'Mixed.Case@Example.com' },
  });
  t = await createTestApp({
    publicUrl: PUBLIC_URL,
    oidc: {
      issuer: idp.issuer,
      clientId: idp.clientId,
      clientSecret: idp.clientSecret,
      scopes: 'openid email profile',
      label: 'Company login',
    },
  });
  plain = await createTestApp();
});
afterAll(async () => {
  await t.close();
  await plain.close();
  await idp.close();
});

/** What the console does: open /api/sso/start, let the user log in at the provider, hand the callback to /api/sso/exchange. */
async function startLogin(redirect = '/settings/account') {
  const start = await t.app.inject({ method: 'GET', url: `/api/sso/start?redirect=${encodeURIComponent(redirect)}` });
  expect(start.statusCode).toBe(302);
  const cookie = String(start.headers['set-cookie']);
  expect(cookie).toMatch(new RegExp(`^${SSO_STATE_COOKIE}=[^;]+; Path=/api/sso; HttpOnly; SameSite=Lax; Max-Age=600$`));
  return { authorizationUrl: String(start.headers.location), cookie: cookie.split(';')[0]! };
}

function exchange(callback: URL, cookie: string | undefined) {
  return t.app.inject({
    method: 'POST',
    url: '/api/sso/exchange',
    headers: cookie ? { cookie } : {},
    payload: { callback: callback.search },
  });
}

async function userOf(token: string) {
  return (await t.app.inject({ method: 'GET', url: '/api/data/users', headers: { 'x-token': token } })).json();
}

describe('single sign-on over OpenID Connect', () => {
  it('tells the login page whether to offer the button', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/sso/config' })).json()).toEqual({
      enabled: true,
      label: 'Company login',
    });
    expect((await plain.app.inject({ method: 'GET', url: '/api/sso/config' })).json()).toEqual({ enabled: false, label: null });
    const off = await plain.app.inject({ method: 'GET', url: '/api/sso/start' });
    expect(off.statusCode).toBe(404);
    expect(off.json().key).toBe('sso.notConfigured');
  });

  it('sends the browser to the provider with PKCE (S256), state and nonce', async () => {
    const { authorizationUrl } = await startLogin();
    const url = new URL(authorizationUrl);
    expect(url.origin).toBe(idp.issuer);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: 'herald',
      response_type: 'code',
      redirect_uri: REDIRECT_URI,
      scope: 'openid email profile',
      code_challenge_method: 'S256',
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
      state: expect.stringMatching(/^[\w-]{20,}$/),
      nonce: expect.stringMatching(/^[\w-]{20,}$/),
    });
  });

  it('runs the whole code flow: a first login creates the account, a second finds it, the token is a Herald session', async () => {
    const first = await startLogin('/mass-mail/campaigns');
    const callback = await idp.loginAndConsent(first.authorizationUrl, 'newcomer@example.com');
    expect(callback.searchParams.get('code')).toBeTruthy();
    const answer = await exchange(callback, first.cookie);
    expect(answer.statusCode).toBe(200);
    expect(answer.json().redirect).toBe('/mass-mail/campaigns');
    expect(String(answer.headers['set-cookie'])).toMatch(new RegExp(`^${SSO_STATE_COOKIE}=; .*Max-Age=0`));
    const user = await userOf(answer.json().token);
    expect(user).toMatchObject({ username: 'newcomer@example.com', roles: ['site'] });

    const again = await startLogin();
    const second = await exchange(await idp.loginAndConsent(again.authorizationUrl, 'newcomer@example.com'), again.cookie);
    expect(second.statusCode).toBe(200);
    expect(second.json().token).not.toBe(answer.json().token);
    const accounts = await t.database.db
      .selectFrom('accounts')
      .select('id')
      .where('email', '=', 'newcomer@example.com')
      .execute();
    expect(accounts).toHaveLength(1);
  });

  it('signs an existing password account in by its e-mail, whatever its case at the provider', async () => {
    const existing = await signUp(t.app, { email: 'mixed.case@example.com', role: 'api' });
    const login = await startLogin();
    const answer = await exchange(await idp.loginAndConsent(login.authorizationUrl, 'mixed-case'), login.cookie);
    expect(answer.statusCode).toBe(200);
    expect(await userOf(answer.json().token)).toMatchObject({ username: 'mixed.case@example.com', roles: ['api'] });
    expect(await userOf(existing.token)).toMatchObject({ username: 'mixed.case@example.com' });
  });

  it('refuses a callback without the browser state cookie, with another state, or replayed', async () => {
    const login = await startLogin();
    const callback = await idp.loginAndConsent(login.authorizationUrl, 'replay@example.com');
    const noCookie = await exchange(callback, undefined);
    expect(noCookie.statusCode).toBe(401);
    expect(noCookie.json().key).toBe('sso.expired');
    const otherBrowser = await exchange(callback, `${SSO_STATE_COOKIE}=someone-elses-state`);
    expect(otherBrowser.json().key).toBe('sso.expired');

    expect((await exchange(callback, login.cookie)).statusCode).toBe(200);
    const replay = await exchange(callback, login.cookie);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().key).toBe('sso.expired');
  });

  it('refuses an e-mail the provider has not verified, and creates no account', async () => {
    const login = await startLogin();
    const answer = await exchange(await idp.loginAndConsent(login.authorizationUrl, 'unverified@example.com'), login.cookie);
    expect(answer.statusCode).toBe(401);
    expect(answer.json()).toMatchObject({ key: 'sso.noEmail' });
    expect(
      await t.database.db.selectFrom('accounts').where('email', '=', 'unverified@example.com').selectAll().execute(),
    ).toEqual([]);
  });

  it('reports a provider error (the user refused) as a failed sign-on, in the user language', async () => {
    const login = await startLogin();
    const state = new URL(login.authorizationUrl).searchParams.get('state')!;
    const refused = new URL(
      `${REDIRECT_URI}?error=access_denied&error_description=End-User+aborted&state=${state}&iss=${encodeURIComponent(idp.issuer)}`,
    );
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/sso/exchange',
      headers: { cookie: login.cookie, 'accept-language': 'ru' },
      payload: { callback: refused.search },
    });
    expect(answer.statusCode).toBe(401);
    expect(answer.json()).toMatchObject({ key: 'sso.failed', message: 'Единый вход не удался: End-User aborted' });
  });

  it('sends the browser back to the login page with the reason when the provider cannot be reached', async () => {
    const down = await createTestApp({
      publicUrl: PUBLIC_URL,
      // Port 9 on loopback: nothing listens, discovery fails.
      oidc: { issuer: 'http://127.0.0.1:9', clientId: 'herald', clientSecret: 'x', scopes: 'openid email', label: undefined },
    });
    try {
      const start = await down.app.inject({ method: 'GET', url: '/api/sso/start', headers: { 'accept-language': 'ru' } });
      expect(start.statusCode).toBe(302);
      const location = new URL(String(start.headers.location), PUBLIC_URL);
      expect(location.pathname).toBe('/login');
      expect(location.searchParams.get('ssoError')).toBe('sso.unavailable');
      expect(start.headers['set-cookie']).toBeUndefined();
      expect((await down.app.inject({ method: 'GET', url: '/api/sso/config' })).json()).toEqual({ enabled: true, label: null });
    } finally {
      await down.close();
    }
  });

  it('keeps the redirect inside the console', async () => {
    for (const evil of ['//evil.example/x', 'https://evil.example/', '/\\evil.example']) {
      const login = await startLogin(evil);
      const answer = await exchange(await idp.loginAndConsent(login.authorizationUrl, 'redirect@example.com'), login.cookie);
      expect(answer.json().redirect).toBe('/');
    }
  });
});
