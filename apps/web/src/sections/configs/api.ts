/** Calls and shapes of provider configurations, balances, default options, groups and the sandbox inbox. */
import type { ChannelCategory } from '@herald/shared';
import { queryOptions } from '@tanstack/react-query';
import { http } from '../../api/http';

const CONFIGS = '/data/provider-configurations';
const GROUPS = '/provider-configurations/groups';

export type FieldKind = 'string' | 'number' | 'boolean' | 'select' | 'secret' | 'textarea' | 'email' | 'url' | 'json';
export type SettingValue = string | number | boolean;

export interface ProviderField {
  name: string;
  label: string;
  kind: FieldKind;
  required?: boolean;
  default?: SettingValue;
  options?: string[];
  min?: number;
  max?: number;
  secret: boolean;
}

export interface ProviderType {
  type: string;
  category: ChannelCategory;
  fields: ProviderField[];
}

export interface FilterItem {
  kind: 'country' | 'operator';
  value: string;
}

export interface ProviderConfig {
  id: number;
  providerConfigId: number;
  name: string;
  type: string;
  category: ChannelCategory;
  active: boolean;
  limitPerDay: number | null;
  limitPerMonth: number | null;
  filter: FilterItem[];
  settings: Record<string, SettingValue>;
  secrets: Record<string, { set: boolean; mask: string }>;
  createdAt: number;
  updatedAt: number;
}

export interface ConfigBody {
  id?: number;
  name: string;
  type: string;
  active: boolean;
  limitPerDay: number | null;
  limitPerMonth: number | null;
  filter: FilterItem[];
  settings: Record<string, SettingValue>;
}

export interface Balance {
  providerConfigId: number;
  balance: number | null;
  currency: string | null;
  error: string | null;
  updatedAt: number;
}

export interface ProviderOption {
  providerConfigId: number;
  category: ChannelCategory;
}

export interface GroupMember {
  providerConfigId: number;
  priority: number;
  name: string;
  type: string;
  active: boolean;
}

export interface ProviderGroup {
  id: number;
  name: string;
  category: ChannelCategory;
  configs: GroupMember[];
}

export interface GroupBody {
  id?: number;
  name: string;
  category: ChannelCategory;
  configs: { providerConfigId: number; priority: number }[];
}

export interface SandboxMessage {
  id: number;
  providerConfigId: number;
  category: ChannelCategory;
  recipient: string;
  subject: string | null;
  body: string;
  providerMessageId: string;
  status: string;
  createdAt: number;
}

export interface Page<T> {
  total: number;
  items: T[];
}

/** Prefix shared with the layout's own config queries, so one invalidation refreshes the shell's counts too. */
export const CONFIGS_KEY = ['provider-configurations', 'custom'] as const;
export const GROUPS_KEY = ['provider-groups'] as const;
export const OPTIONS_KEY = ['user-provider-options'] as const;

export const typesQuery = queryOptions({
  queryKey: ['provider-configurations', 'types', 'fields'],
  queryFn: () => http.get<ProviderType[]>(`${CONFIGS}/types`),
  staleTime: Number.POSITIVE_INFINITY,
});

export const configsQuery = queryOptions({
  queryKey: [...CONFIGS_KEY, 'full'],
  queryFn: () => http.get<ProviderConfig[]>(`${CONFIGS}/custom`),
});

export const optionsQuery = queryOptions({
  queryKey: OPTIONS_KEY,
  queryFn: () => http.get<ProviderOption[]>('/data/user-provider-options'),
});

export function balancesQuery(ids: readonly number[]) {
  return queryOptions({
    queryKey: ['provider-configurations', 'balances', ...ids],
    queryFn: () => http.post<Balance[]>(`${CONFIGS}/balances`, { ids }),
    enabled: ids.length > 0,
    // Balances already shown stay on screen while a changed set of rows is asked for.
    placeholderData: (previous) => previous,
  });
}

export function groupsQuery(category: ChannelCategory, page: number, size: number) {
  return queryOptions({
    queryKey: [...GROUPS_KEY, category, page, size],
    queryFn: () => http.get<Page<ProviderGroup>>(GROUPS, { category, page, size }),
    placeholderData: (previous) => previous,
  });
}

export function sandboxQuery(category: ChannelCategory, page: number, size: number) {
  return queryOptions({
    queryKey: ['sandbox-messages', category, page, size],
    queryFn: () => http.get<Page<SandboxMessage>>('/data/sandbox/messages', { category, page, size }),
    placeholderData: (previous) => previous,
  });
}

// Form submits are silent: the form maps field errors itself and reports the rest.
export const configsApi = {
  save: (body: ConfigBody) =>
    body.id === undefined
      ? http.post<ProviderConfig>(CONFIGS, body, { silent: true })
      : http.put<ProviderConfig>(CONFIGS, body, { silent: true }),
  test: (body: ConfigBody) => http.post<{ ok: boolean; message: string }>(`${CONFIGS}/test`, body, { silent: true }),
  remove: (id: number) => http.delete<unknown>(`${CONFIGS}/${id}`),
  makeDefault: (providerConfigId: number) => http.post<ProviderOption[]>('/data/user-provider-options', { providerConfigId }),
};

export const groupsApi = {
  save: (body: GroupBody) =>
    body.id === undefined
      ? http.post<ProviderGroup>(GROUPS, body, { silent: true })
      : http.put<ProviderGroup>(GROUPS, body, { silent: true }),
  remove: (id: number) => http.delete<unknown>(`${GROUPS}/${id}`),
};

export function isSandbox(type: string): boolean {
  return type.startsWith('sandbox-');
}
