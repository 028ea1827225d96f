/** Single sign-on routes; all public, as they run before the user has a session. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../http/errors.js';
import type { SsoClient } from './service.js';

export const SSO_STATE_COOKIE = 'herald_sso_state';
const COOKIE_PATH = '/api/sso';

export interface SsoRoutesDeps {
  /** Absent when OIDC is not configured: the routes answer that sign-on is off. */
  client: SsoClient | undefined;
  label: string | undefined;
  secureCookie: boolean;
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

export const ssoRoutes: FastifyPluginAsyncTypebox<SsoRoutesDeps> = async (app, deps) => {
  const tags = ['auth'];
  const cookie = (value: string, maxAge: number) =>
    `${SSO_STATE_COOKIE}=${encodeURIComponent(value)}; Path=${COOKIE_PATH}; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${deps.secureCookie ? '; Secure' : ''}`;
  const client = () => {
    if (!deps.client) throw new AppError(404, 'sso.notConfigured');
    return deps.client;
  };

  app.get(
    '/api/sso/config',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Whether single sign-on is offered, and its button text',
        response: { 200: Type.Object({ enabled: Type.Boolean(), label: Type.Union([Type.String(), Type.Null()]) }) },
      },
    },
    async () => ({ enabled: deps.client !== undefined, label: deps.client ? (deps.label ?? null) : null }),
  );

  app.get(
    '/api/sso/start',
    {
      config: { public: true },
      schema: {
        tags,
        summary: "Start single sign-on: redirects to the identity provider's login",
        querystring: Type.Object({ redirect: Type.Optional(Type.String({ maxLength: 2000 })) }),
      },
    },
    async (request, reply) => {
      const sso = client();
      try {
        const { url, state } = await sso.start(request.query.redirect);
        return reply.header('set-cookie', cookie(state, 600)).header('cache-control', 'no-store').redirect(url, 302);
      } catch (error) {
        request.log.warn({ err: error }, 'single sign-on could not start');
        // The browser came here by a link: back to the login page, which shows a fixed text for this key
        // (a key, not a text, so a crafted link cannot make the page say anything else).
        return reply.header('cache-control', 'no-store').redirect('/login?ssoError=sso.unavailable', 302);
      }
    },
  );

  app.post(
    '/api/sso/exchange',
    {
      config: { public: true },
      schema: {
        tags,
        summary: "Exchange the identity provider's callback (the query /authredirect received) for a Herald token",
        body: Type.Object({ callback: Type.String({ maxLength: 8000 }) }),
        response: { 200: Type.Object({ token: Type.String(), redirect: Type.String() }) },
      },
    },
    async (request, reply) => {
      const browserState = cookieValue(request.headers.cookie, SSO_STATE_COOKIE);
      // The state is single-use whatever the outcome.
      reply.header('set-cookie', cookie('', 0));
      return client().finish(request.body.callback, browserState);
    },
  );
};
