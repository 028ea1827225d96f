/**
 * The live API keys a process has seen lately, by key hash, so a request costs no key query. An entry is trusted
 * for KEY_TRUST_MS and then read again: a key revoked in this process is refused at once (revokeKey forgets it),
 * one revoked in another process (or deleted with its account) at most KEY_TRUST_MS later.
 */
import type { Language } from '@herald/shared';
import type { Db } from '../db/database.js';
import { isLanguage } from '../http/language.js';
import { findLiveKeyByHash } from './queries.js';
import type { ApiKeyScope } from './schemas.js';

export const KEY_TRUST_MS = 1000;
/** Past this many keys the oldest entries go; a process rarely sees more than a few live keys. */
const MAX_ENTRIES = 10_000;

export interface LiveKey {
  keyId: number;
  accountId: number;
  scope: ApiKeyScope;
  rateLimit: number;
  /** The account's saved language, if any. */
  language: Language | null;
  /** When last_used_at was last written (or read), to write it at most once a minute. */
  touchedAt: number | null;
}

interface Entry {
  readAt: number;
  /** Shared by the requests that arrive while the key is being read. */
  key: Promise<LiveKey | undefined>;
  /** Set once the read is done. */
  keyId?: number;
}

export class KeyCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly db: Db) {}

  /** The live key with this hash, or undefined when there is none (unknown or revoked). */
  find(keyHash: string, now = Date.now()): Promise<LiveKey | undefined> {
    const entry = this.entries.get(keyHash);
    if (entry && now - entry.readAt < KEY_TRUST_MS) return entry.key;
    const key = this.read(keyHash);
    const fresh: Entry = { readAt: now, key };
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(keyHash, fresh);
    // Unknown keys and failed reads are not kept: the next request asks the database again.
    key.then(
      (found) => {
        if (found) fresh.keyId = found.keyId;
        else this.drop(keyHash, fresh);
      },
      () => this.drop(keyHash, fresh),
    );
    return key;
  }

  /** Forgets a key at once (it was revoked here), and any read still running, which may predate the revocation. */
  forget(keyId: number): void {
    for (const [hash, entry] of this.entries) if (entry.keyId === undefined || entry.keyId === keyId) this.entries.delete(hash);
  }

  private async read(keyHash: string): Promise<LiveKey | undefined> {
    const row = await findLiveKeyByHash(this.db, keyHash);
    if (!row) return undefined;
    return {
      keyId: Number(row.id),
      accountId: Number(row.account_id),
      scope: row.scope as ApiKeyScope,
      rateLimit: Number(row.rate_limit),
      language: isLanguage(row.language) ? row.language : null,
      touchedAt: row.last_used_at === null ? null : Number(row.last_used_at),
    };
  }

  private drop(keyHash: string, entry: Entry): void {
    if (this.entries.get(keyHash) === entry) this.entries.delete(keyHash);
  }
}

const caches = new WeakMap<Db, KeyCache>();

/** The cache of one database handle, shared by the key guard and the key screens that revoke. */
export function keyCacheOf(db: Db): KeyCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = new KeyCache(db);
    caches.set(db, cache);
  }
  return cache;
}
