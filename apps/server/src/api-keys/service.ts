/** API keys: random, shown once, stored as their sha256; revoking keeps the row for the console's list. */
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/database.js';
import { assertFields, notFound } from '../http/errors.js';
import { hashToken } from '../lib/crypto.js';
import { keyCacheOf } from './key-cache.js';
import * as q from './queries.js';
import { type ApiKeyScope, DEFAULT_RATE_LIMIT } from './schemas.js';

const KEY_PREFIX = 'hk_';
/** hk_ and the next four characters identify a key in the console without giving it away. */
const VISIBLE_CHARS = KEY_PREFIX.length + 4;

/** hk_ followed by 40 url-safe random characters (240 bits). */
export function newApiKey(): string {
  return KEY_PREFIX + randomBytes(30).toString('base64url');
}

function answer(row: q.ApiKeyRow) {
  return {
    id: Number(row.id),
    name: row.name,
    scope: row.scope as ApiKeyScope,
    keyStart: `${row.key_start}…`,
    rateLimit: Number(row.rate_limit),
    createdAt: Number(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
    revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
  };
}

export async function listKeys(db: Db, accountId: number) {
  return (await q.listKeys(db, accountId)).map(answer);
}

export async function createKey(db: Db, accountId: number, input: { name: string; scope: ApiKeyScope; rateLimit?: number }) {
  const name = input.name.trim();
  assertFields({ name: name ? null : { key: 'validation.mandatory' } });
  const key = newApiKey();
  const row = await q.insertKey(
    db,
    accountId,
    {
      name,
      scope: input.scope,
      keyHash: hashToken(key),
      keyStart: key.slice(0, VISIBLE_CHARS),
      rateLimit: input.rateLimit ?? DEFAULT_RATE_LIMIT,
    },
    Date.now(),
  );
  return { ...answer(row), key };
}

export async function revokeKey(db: Db, accountId: number, id: number) {
  const row = await q.revokeKey(db, accountId, id, Date.now());
  if (!row) throw notFound();
  keyCacheOf(db).forget(Number(row.id));
  return answer(row);
}
