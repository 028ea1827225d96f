import type { Generated } from 'kysely';

/** A single sign-on started but not finished: PKCE verifier and nonce, found again by the state. */
export interface SsoLoginsTable {
  id: Generated<number>;
  /** sha256 of the state parameter. */
  state_hash: string;
  code_verifier: string;
  nonce: string;
  /** Console path to open after sign-in. */
  redirect: string;
  expires_at: number;
}

export interface SsoTables {
  sso_logins: SsoLoginsTable;
}
