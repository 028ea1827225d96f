/**
 * Every /api route needs a session unless its config says `public: true`; `roles` narrows it further.
 * The session is looked up once per request from the X-Token header.
 */
import { hasAnyRole, type Language, type Role } from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/database.js';
import { AppError } from '../http/errors.js';
import { headerLanguage, isLanguage, languageFromHeader } from '../http/language.js';
import { findSessionByToken, touchSession } from './queries.js';

export interface SessionContext {
  sessionId: number;
  accountId: number;
  email: string;
  /** The name the user chose in Settings > Account; null shows the e-mail. */
  displayName: string | null;
  profile: string;
  roles: Role[];
  language: Language | null;
  avatar: string;
  timeZoneId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    session: SessionContext | null;
    lang: Language;
  }
  interface FastifyContextConfig {
    /** Reachable without a session. */
    public?: boolean;
    /** Reachable only with one of these roles. */
    roles?: Role[];
  }
}

/** A session's roles: its profile, plus admin for admin accounts. */
export function rolesOf(profile: string, isAdmin: boolean): Role[] {
  const roles: Role[] = [profile === 'api' ? 'api' : 'site'];
  if (isAdmin) roles.push('admin');
  return roles;
}

const TOUCH_EVERY_MS = 60_000;

export interface GuardOptions {
  db: Db;
  sessionIdleMs: number;
}

export const sessionGuard = fp<GuardOptions>(async (app: FastifyInstance, { db, sessionIdleMs }) => {
  app.decorateRequest('session', null);
  app.decorateRequest('lang', 'en');

  app.addHook('onRequest', async (request) => {
    request.lang = languageFromHeader(request.headers['accept-language']);
    const token = request.headers['x-token'];
    if (typeof token === 'string' && token.length > 0 && token.length <= 200) {
      const now = Date.now();
      const row = await findSessionByToken(db, token, now - sessionIdleMs);
      if (row) {
        if (now - row.last_seen_at > TOUCH_EVERY_MS) await touchSession(db, row.session_id, now);
        request.session = {
          sessionId: row.session_id,
          accountId: row.account_id,
          email: row.email,
          displayName: row.display_name,
          profile: row.profile,
          roles: rolesOf(row.profile, row.is_admin === 1),
          language: isLanguage(row.language) ? row.language : null,
          avatar: row.avatar,
          timeZoneId: row.time_zone_id,
        };
        // The account's saved language, unless the caller's header asks for another language Herald speaks.
        if (request.session.language && !headerLanguage(request.headers['accept-language']))
          request.lang = request.session.language;
      }
    }
    // Checked before body parsing and validation, so an anonymous caller learns nothing about a route's input.
    // The matched route's pattern decides, never the raw URL: /%61pi/... reaches the same route as /api/...
    const config = request.routeOptions.config;
    if (!request.routeOptions.url?.startsWith('/api/') || config.public || request.is404) return;
    if (!request.session) throw new AppError(401, 'error.unauthorized');
    if (!hasAnyRole(request.session.roles, config.roles)) throw new AppError(403, 'error.forbidden');
  });
});

/** The session of a route that the guard already let through. */
export function sessionOf(request: { session: SessionContext | null }): SessionContext {
  if (!request.session) throw new AppError(401, 'error.unauthorized');
  return request.session;
}
