import type { Generated } from 'kysely';

/** The ledger: one row per message, the source of truth for what was sent (ARCHITECTURE.md, Storage). */
export interface MessagesTable {
  id: Generated<number>;
  account_id: number;
  campaign_id: number | null;
  /** 0 = priority lane (API), 1 = bulk (campaigns): lower lanes are claimed first. */
  lane: number;
  channel: string;
  recipient: string;
  contact_id: number | null;
  template_id: number | null;
  /** JSON: inline content or variables for messages that do not come from a campaign. */
  payload: string | null;
  /** Where the message may go: a provider group, or one config, or (neither) the account default. */
  route_group_id: number | null;
  route_config_id: number | null;
  /** The config that actually took the message. */
  config_id: number | null;
  status: string;
  attempts: number;
  next_attempt_at: number;
  lease_until: number | null;
  lease_owner: string | null;
  provider_message_id: string | null;
  /** The provider's words or Herald's reason for the current status. */
  detail: string | null;
  locale: string | null;
  /** JSON SmsPartsSent: the parts of a long SMS a provider took before it refused the rest; what a retry skips. */
  sms_parts_sent: string | null;
  created_at: number;
  updated_at: number;
}

export interface MessageEventsTable {
  id: Generated<number>;
  message_id: number;
  account_id: number;
  status: string;
  config_id: number | null;
  detail: string | null;
  at: number;
}

/** Counts per hour, kept in the same transaction as every status change: reports never scan messages. */
export interface MessageRollupTable {
  account_id: number;
  /** Hours since the epoch of the message's creation, so reports can group by the user's local day. */
  hour: number;
  channel: string;
  config_id: number;
  campaign_id: number;
  /** 0 for messages without a template; reports filter by the template's category through it. */
  template_id: number;
  status: string;
  count: number;
}

/** The hourly rollup summed per UTC day (`day` = floor(hour / 24)), kept in the same transaction by the same code. */
export interface MessageRollupDailyTable extends Omit<MessageRollupTable, 'hour'> {
  /** Days since the epoch (UTC) of the message's creation. */
  day: number;
}

/** Messages a config took per day and per month, for its limits (embedded mode keeps them here). */
export interface ConfigUsageTable {
  config_id: number;
  /** d:YYYYMMDD or m:YYYYMM in UTC. */
  period: string;
  count: number;
}

/** How far each paced config's sends are booked ahead, in µs since the epoch (engine/pace.ts). */
export interface ConfigPaceTable {
  config_id: number;
  booked: number;
}

/** Limit slots a sender reserved and has not handed to its provider yet; given back when its lease runs out. */
export interface LimitHoldsTable {
  id: Generated<number>;
  /** The dispatcher holding them, as in messages.lease_owner. */
  owner: string;
  config_id: number;
  /** When they were reserved: the day and month whose usage they count in. */
  reserved_at: number;
  count: number;
  lease_until: number;
}

export interface MessageTables {
  messages: MessagesTable;
  message_events: MessageEventsTable;
  message_rollup: MessageRollupTable;
  message_rollup_daily: MessageRollupDailyTable;
  config_usage: ConfigUsageTable;
  config_pace: ConfigPaceTable;
  limit_holds: LimitHoldsTable;
}
