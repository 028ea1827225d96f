import type { Generated } from 'kysely';

export interface AccountsTable {
  id: Generated<number>;
  email: string;
  password_hash: string;
  time_zone_id: string;
  avatar: string;
  language: string | null;
  /** The usage profile last chosen: site or api. */
  profile: string;
  is_admin: number;
  /** Where SMTP bounces for this account's mail go (Settings > Account). */
  bounce_address: Generated<string | null>;
  /** The name shown in the console; the e-mail when unset. */
  display_name: Generated<string | null>;
  created_at: number;
  updated_at: number;
}

export interface SessionsTable {
  id: Generated<number>;
  account_id: number;
  /** sha256 of the token; the token itself is never stored. */
  token_hash: string;
  profile: string;
  created_at: number;
  last_seen_at: number;
}

export interface LoginFailuresTable {
  id: Generated<number>;
  /** username|ip the failure counts against. */
  attempt_key: string;
  failed_at: number;
}

export interface PasswordResetsTable {
  id: Generated<number>;
  account_id: number;
  token_hash: string;
  expires_at: number;
  used_at: number | null;
  created_at: number;
}

export interface AuthTables {
  accounts: AccountsTable;
  sessions: SessionsTable;
  login_failures: LoginFailuresTable;
  password_resets: PasswordResetsTable;
}
