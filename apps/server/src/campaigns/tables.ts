import type { Generated } from 'kysely';

/** A mass mailing; its messages are materialised into the ledger when it starts. */
export interface CampaignsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  channel: string;
  /** draft, scheduled, sending, paused, sent, cancelled or failed. */
  state: string;
  list_id: number | null;
  template_id: number | null;
  group_id: number | null;
  config_id: number | null;
  scheduled_at: number | null;
  started_at: number | null;
  finished_at: number | null;
  total: Generated<number>;
  /** Contacts of the list left out: unsubscribed, bounced, blocked, or without an address for the channel. */
  suppressed: Generated<number>;
  /** Messages are materialised in contact-id order; this is the last contact done, so a restart resumes. */
  materialized_to: Generated<number>;
  materialized: Generated<number>;
  /** Why the campaign is in its state, as a message key (packages/shared errors) rendered in the reader's language. */
  detail: string | null;
  /** JSON of the key's parameters. */
  detail_params: string | null;
  /** A template of the other channel: a message its own channel cannot deliver goes there instead (null: no fallback). */
  fallback_template_id: number | null;
  /** Where fallback messages go: a group or one config of the other channel; neither means the account default. */
  fallback_group_id: number | null;
  fallback_config_id: number | null;
  /** E-mail neither opened nor undelivered this long after the campaign finished becomes unread. */
  unread_after_hours: Generated<number>;
  unread_marked_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface CampaignTables {
  campaigns: CampaignsTable;
}
