/**
 * A real OpenID Connect provider (the oidc-provider package) on loopback, with its development login
 * and consent screens, and a driver that goes through them like a browser would.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface TestUser {
  email: string;
  emailVerified?: boolean;
}

export interface IdentityProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Logs in as `login` on the provider's screens and answers the URL it sends the browser back to. */
  loginAndConsent(authorizationUrl: string, login: string): Promise<URL>;
  close(): Promise<void>;
}

export async function startIdentityProvider(redirectUri: string, users: Record<string, TestUser>): Promise<IdentityProvider> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'herald';
  const clientSecret = 'herald-client-secret';
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    pkce: { required: () => true },
    cookies: { keys: ['identity-provider-test-key'] },
    findAccount: async (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: async () => ({
        sub,
        email: users[sub]?.email ?? sub,
        email_verified: users[sub]?.emailVerified ?? true,
        name: sub,
      }),
    }),
  });
  server.on('request', provider.callback());

  async function loginAndConsent(authorizationUrl: string, login: string): Promise<URL> {
    const jar = new Map<string, string>();
    const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    let url = new URL(authorizationUrl);
    let init: RequestInit = { method: 'GET' };
    for (let step = 0; step < 20; step++) {
      const response = await fetch(url, {
        ...init,
        redirect: 'manual',
        headers: { ...(init.headers ?? {}), cookie: cookieHeader() },
      });
      for (const line of response.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const [name = '', ...rest] = pair.split('=');
        const value = rest.join('=');
        if (value && !/expires=Thu, 01 Jan 1970/i.test(line)) jar.set(name, value);
        else jar.delete(name);
      }
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        await response.arrayBuffer();
        const next = new URL(location, url);
        if (next.href.startsWith(redirectUri)) return next;
        url = next;
        init = { method: 'GET' };
        continue;
      }
      const page = await response.text();
      if (response.status !== 200 || !url.pathname.startsWith('/interaction/')) {
        throw new Error(`identity provider answered ${response.status} at ${url.pathname}: ${page.slice(0, 300)}`);
      }
      const prompt = page.includes('name="prompt" value="login"') ? 'login' : 'consent';
      init = {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ prompt, login, password: 'any' }).toString(),
      };
    }
    throw new Error('the identity provider never sent the browser back');
  }

  return {
    issuer,
    clientId,
    clientSecret,
    loginAndConsent,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
