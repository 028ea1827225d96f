import type { Generated } from 'kysely';

/** An account's Slack notification settings (Settings > Notifications). */
export interface HookSettingsTable {
  account_id: number;
  /** AES-256-GCM sealed Slack incoming-webhook URL: the URL itself is the credential. */
  slack_url: string | null;
  sender_name: string;
  /** JSON array of the hook event names the account wants to hear about. */
  events: string;
  /** A config's balance under this amount raises balance.low; null turns it off. */
  balance_threshold: number | null;
  updated_at: number;
}

/** The outbox of Slack posts: written when an event happens, sent by the hook worker with retries. */
export interface HookDeliveriesTable {
  id: Generated<number>;
  account_id: number;
  event: string;
  /** One delivery per occurrence: campaign id, config and period, … (unique per account). */
  dedupe_key: string | null;
  /** JSON of the Slack body ({text, username}). */
  payload: string;
  /** pending, sent or failed. */
  status: string;
  attempts: Generated<number>;
  next_attempt_at: number;
  lease_until: number | null;
  response_status: number | null;
  last_error: string | null;
  created_at: number;
  finished_at: number | null;
}

export interface HookTables {
  hook_settings: HookSettingsTable;
  hook_deliveries: HookDeliveriesTable;
}
