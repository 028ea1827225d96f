import type { Generated } from 'kysely';

/** Keys for the public sending API (/api/v1); the key itself is shown once and stored as its sha256. */
export interface ApiKeysTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  /** send (send and read) or read (read only). */
  scope: string;
  key_hash: string;
  /** The first characters of the key, so a user can tell keys apart in the console. */
  key_start: string;
  /** Requests per second this key may make. */
  rate_limit: number;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

/** The first answer given to an Idempotency-Key, replayed to every retry with the same body. */
export interface IdempotencyKeysTable {
  account_id: number;
  key: string;
  request_hash: string;
  /** JSON of the answer body (always a 202). */
  answer: string;
  created_at: number;
}

export interface ApiKeyTables {
  api_keys: ApiKeysTable;
  idempotency_keys: IdempotencyKeysTable;
}
