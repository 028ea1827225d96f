import type { Generated } from 'kysely';

/** One status webhook per account. */
export interface WebhooksTable {
  account_id: number;
  url: string;
  /** The signing secret, encrypted under HERALD_SECRET (the receiver needs the same plain secret). */
  secret: string;
  enabled: number;
  /** api: only messages sent through /api/v1; all: campaign messages too. */
  events: string;
  created_at: number;
  updated_at: number;
}

/** The outbox and delivery log at once: one row per event, written in the status change's transaction. */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  account_id: number;
  /** message.status, or webhook.test for the console's test button. */
  type: string;
  message_id: number | null;
  status: string | null;
  previous_status: string | null;
  detail: string | null;
  /** When the event happened. */
  at: number;
  /** pending, delivered or failed (gave up). */
  state: string;
  attempts: number;
  next_attempt_at: number;
  lease_until: number | null;
  response_code: number | null;
  last_error: string | null;
  delivered_at: number | null;
}

export interface WebhookTables {
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
}
