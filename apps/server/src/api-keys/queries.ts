/** API key rows, always scoped by account. */
import type { Db } from '../db/database.js';

export function listKeys(db: Db, accountId: number) {
  return db.selectFrom('api_keys').selectAll().where('account_id', '=', accountId).orderBy('id', 'desc').execute();
}

export type ApiKeyRow = Awaited<ReturnType<typeof listKeys>>[number];

export interface NewKey {
  name: string;
  scope: string;
  keyHash: string;
  keyStart: string;
  rateLimit: number;
}

export async function insertKey(db: Db, accountId: number, key: NewKey, now: number): Promise<ApiKeyRow> {
  return db
    .insertInto('api_keys')
    .values({
      account_id: accountId,
      name: key.name,
      scope: key.scope,
      key_hash: key.keyHash,
      key_start: key.keyStart,
      rate_limit: key.rateLimit,
      created_at: now,
      last_used_at: null,
      revoked_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Revokes a live key; answers the row, or undefined when the account has no such key. */
export async function revokeKey(db: Db, accountId: number, id: number, now: number): Promise<ApiKeyRow | undefined> {
  await db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
  return db.selectFrom('api_keys').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
}

/** A key not revoked, with its account's saved language (the language of its errors when the call names none). */
export function findLiveKeyByHash(db: Db, keyHash: string) {
  return db
    .selectFrom('api_keys')
    .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
    .select([
      'api_keys.id',
      'api_keys.account_id',
      'api_keys.scope',
      'api_keys.rate_limit',
      'api_keys.last_used_at',
      'accounts.language',
    ])
    .where('api_keys.key_hash', '=', keyHash)
    .where('api_keys.revoked_at', 'is', null)
    .executeTakeFirst();
}

export async function touchKey(db: Db, id: number, now: number): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', id).execute();
}
