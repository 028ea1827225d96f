import type { Generated } from 'kysely';

export interface ProviderConfigsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  type: string;
  category: string;
  active: number;
  /** JSON of the type's non-secret fields. */
  settings: string;
  /** AES-256-GCM sealed JSON of the type's secret fields. */
  secrets: string;
  limit_per_day: number | null;
  limit_per_month: number | null;
  /** JSON array of at most 4 country or operator filter items. */
  filter: string;
  created_at: number;
  updated_at: number;
}

export interface ProviderBalancesTable {
  config_id: number;
  account_id: number;
  amount: string | null;
  currency: string | null;
  error: string | null;
  checked_at: number;
}

export interface ProviderGroupsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  category: string;
  created_at: number;
  updated_at: number;
}

export interface ProviderGroupConfigsTable {
  group_id: number;
  config_id: number;
  priority: number;
}

/** The account's default config per category (spec: user-provider-options). */
export interface UserProviderOptionsTable {
  account_id: number;
  category: string;
  config_id: number;
}

export interface SandboxMessagesTable {
  id: Generated<number>;
  account_id: number;
  config_id: number;
  category: string;
  recipient: string;
  subject: string | null;
  body: string;
  provider_message_id: string;
  /** accepted, delivered or undelivered, as the simulated receipt says. */
  status: string;
  created_at: number;
}

export interface ProviderTables {
  provider_configs: ProviderConfigsTable;
  provider_balances: ProviderBalancesTable;
  provider_groups: ProviderGroupsTable;
  provider_group_configs: ProviderGroupConfigsTable;
  user_provider_options: UserProviderOptionsTable;
  sandbox_messages: SandboxMessagesTable;
}
