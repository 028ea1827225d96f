/**
 * Authenticates /api/v1 calls by API key (Authorization: Bearer or X-Api-Key), before the body is read:
 * a missing, unknown or revoked key is 401, a read key calling a send route is 403, and a key over its
 * rate is 429 with Retry-After. Those routes are public to the session guard; this hook guards them.
 */

import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { Db } from '../db/database.js';
import { errorBody } from '../http/error-handler.js';
import { AppError } from '../http/errors.js';
import { headerLanguage } from '../http/language.js';
import { hashToken } from '../lib/crypto.js';
import { keyCacheOf } from './key-cache.js';
import { touchKey } from './queries.js';
import type { KeyRateLimiter } from './rate-limit.js';
import type { ApiKeyScope } from './schemas.js';

export interface ApiKeyContext {
  keyId: number;
  accountId: number;
  scope: ApiKeyScope;
}

declare module 'fastify' {
  interface FastifyRequest {
    apiKey: ApiKeyContext | null;
  }
}

const TOUCH_EVERY_MS = 60_000;
const MAX_KEY_LENGTH = 200;

function presentedKey(request: FastifyRequest): string | null {
  const authorization = request.headers.authorization;
  if (typeof authorization === 'string' && /^bearer /i.test(authorization)) return authorization.slice(7).trim();
  const header = request.headers['x-api-key'];
  return typeof header === 'string' ? header.trim() : null;
}

/** Errors of this hook carry an explicit empty field list, as the public API's contract shows them. */
function refuse(reply: FastifyReply, request: FastifyRequest, error: AppError) {
  return reply
    .status(error.statusCode)
    .headers(error.headers)
    .send({ ...errorBody(error, request.lang), fields: [] });
}

export interface ApiKeyAuthDeps {
  db: Db;
  limiter: KeyRateLimiter;
}

/** The onRequest hook of one /api/v1 route; `needs` is the scope the route requires. */
export function apiKeyAuth({ db, limiter }: ApiKeyAuthDeps, needs: ApiKeyScope): onRequestAsyncHookHandler {
  const keys = keyCacheOf(db);
  return async function authenticateApiKey(request, reply) {
    const presented = presentedKey(request);
    const key = presented && presented.length <= MAX_KEY_LENGTH ? await keys.find(hashToken(presented)) : undefined;
    if (!key) return refuse(reply, request, new AppError(401, 'apiKey.invalid'));
    // As the console's calls do: the account's saved language unless the call asks for one.
    if (key.language && !headerLanguage(request.headers['accept-language'])) request.lang = key.language;
    const { keyId, accountId, scope } = key;
    const waitMs = await limiter.consume(keyId, key.rateLimit);
    if (waitMs !== null) {
      const seconds = Math.ceil(waitMs / 1000);
      return refuse(reply, request, new AppError(429, 'apiKey.rateLimited', { seconds }, [], { 'Retry-After': String(seconds) }));
    }
    if (needs === 'send' && scope !== 'send') return refuse(reply, request, new AppError(403, 'apiKey.scope'));
    const now = Date.now();
    if (key.touchedAt === null || now - key.touchedAt > TOUCH_EVERY_MS) {
      key.touchedAt = now;
      await touchKey(db, keyId, now);
    }
    request.apiKey = { keyId, accountId, scope };
  };
}

/** The key of a route that apiKeyAuth already let through. */
export function apiKeyOf(request: FastifyRequest): ApiKeyContext {
  if (!request.apiKey) throw new AppError(401, 'apiKey.invalid');
  return request.apiKey;
}
