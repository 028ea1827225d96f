/**
 * Which configs may take a message, in failover order: the one config it names, else its group's
 * configs by priority (unselected = 99), else the account's default for the channel, then the rest.
 * Inactive configs, configs of the other channel and configs whose filters exclude the recipient drop out.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { Db } from '../db/database.js';
import type { ConfigRow } from '../providers/queries.js';
import type { FilterItem } from '../providers/settings.js';
import type { ClaimedMessage } from './queue.js';

export interface RouteConfig {
  row: ConfigRow;
  id: number;
  accountId: number;
  category: string;
  limitPerDay: number | null;
  limitPerMonth: number | null;
  filter: FilterItem[];
  /** The provider's pace (settings.messagesPerSecond), which every channel type may set; null: as fast as it takes them. */
  messagesPerSecond: number | null;
}

function rateOf(settings: string): number | null {
  const value = (JSON.parse(settings) as { messagesPerSecond?: unknown }).messagesPerSecond;
  return typeof value === 'number' && value > 0 ? value : null;
}

function toRouteConfig(row: ConfigRow): RouteConfig {
  return {
    row,
    id: Number(row.id),
    accountId: Number(row.account_id),
    category: row.category,
    limitPerDay: row.limit_per_day === null ? null : Number(row.limit_per_day),
    limitPerMonth: row.limit_per_month === null ? null : Number(row.limit_per_month),
    filter: JSON.parse(row.filter) as FilterItem[],
    messagesPerSecond: rateOf(row.settings),
  };
}

/** Country and operator filters describe whom an SMS config serves; no filter serves everyone. */
export function serves(config: RouteConfig, recipient: string): boolean {
  if (config.filter.length === 0 || config.category !== 'SMS') return true;
  const phone = parsePhoneNumberFromString(recipient);
  return config.filter.some((item) => {
    if (item.kind === 'country') return phone?.country === item.value;
    const national = phone?.nationalNumber ?? recipient.replace(/\D/g, '');
    return item.value
      .split(/[\s,]+/)
      .filter(Boolean)
      .some((code) => national.startsWith(code));
  });
}

export class RouteBook {
  private constructor(
    private readonly configs: Map<number, RouteConfig>,
    private readonly groups: Map<number, number[]>,
    private readonly defaults: Map<string, number>,
  ) {}

  /** Loads the configs, groups and defaults of the accounts a batch touches, once per batch. */
  static async load(db: Db, accountIds: readonly number[]): Promise<RouteBook> {
    const ids = [...new Set(accountIds)];
    if (ids.length === 0) return new RouteBook(new Map(), new Map(), new Map());
    const rows = await db.selectFrom('provider_configs').selectAll().where('account_id', 'in', ids).orderBy('name').execute();
    const members = await db
      .selectFrom('provider_group_configs')
      .innerJoin('provider_groups', 'provider_groups.id', 'provider_group_configs.group_id')
      .select(['provider_group_configs.group_id', 'provider_group_configs.config_id', 'provider_group_configs.priority'])
      .where('provider_groups.account_id', 'in', ids)
      .orderBy('provider_group_configs.priority')
      .execute();
    const options = await db.selectFrom('user_provider_options').selectAll().where('account_id', 'in', ids).execute();
    const groups = new Map<number, number[]>();
    for (const member of members) {
      const list = groups.get(Number(member.group_id)) ?? [];
      list.push(Number(member.config_id));
      groups.set(Number(member.group_id), list);
    }
    return new RouteBook(
      new Map(rows.map((row) => [Number(row.id), toRouteConfig(row)])),
      groups,
      new Map(options.map((option) => [`${option.account_id}|${option.category}`, Number(option.config_id)])),
    );
  }

  config(id: number): RouteConfig | undefined {
    return this.configs.get(id);
  }

  /** Candidate configs in failover order; empty when nothing may take the message. */
  candidates(message: ClaimedMessage): RouteConfig[] {
    const usable = (config: RouteConfig | undefined): config is RouteConfig =>
      config !== undefined &&
      config.row.active === 1 &&
      config.accountId === message.accountId &&
      config.category === message.channel &&
      serves(config, message.recipient);
    if (message.routeConfigId !== null) return [this.configs.get(message.routeConfigId)].filter(usable);
    if (message.routeGroupId !== null)
      return (this.groups.get(message.routeGroupId) ?? []).map((id) => this.configs.get(id)).filter(usable);
    const fallbackId = this.defaults.get(`${message.accountId}|${message.channel}`);
    const rest = [...this.configs.values()].filter((config) => config.id !== fallbackId);
    return [fallbackId === undefined ? undefined : this.configs.get(fallbackId), ...rest].filter(usable);
  }
}
