/** The dashboard's figures: messages and delivery over 7 days, running campaigns, and the first configs' balances. */
import { MAX_BALANCE_CONFIGS } from '@herald/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../api/http';
import type { Balance } from '../sections/configs/api';

export interface DashboardFigures {
  today: number;
  week: number;
  deliveryRate: number | null;
  runningCampaigns: number;
  days: { date: string; email: number; sms: number; reached: number }[];
}

export interface ConfigEntry {
  id: number;
  name: string;
  category: string;
}

const figuresQuery = queryOptions({
  queryKey: ['dashboard', 'figures'],
  queryFn: () => http.get<DashboardFigures>('/data/dashboard', undefined, { silent: true }),
  refetchInterval: 30_000,
});

const configsQuery = queryOptions({
  queryKey: ['provider-configurations', 'custom', 'full'],
  queryFn: () => http.get<ConfigEntry[]>('/data/provider-configurations/custom', undefined, { silent: true }),
});

export function useDashboardFigures() {
  return useQuery(figuresQuery);
}

/** The spec's rule: balances of at most the first 5 configurations. */
export function useFirstBalances() {
  const configs = useQuery(configsQuery);
  const first = (Array.isArray(configs.data) ? configs.data : []).slice(0, MAX_BALANCE_CONFIGS);
  const ids = first.map((config) => config.id);
  const balances = useQuery({
    queryKey: ['provider-configurations', 'balances', ...ids],
    queryFn: () => http.post<Balance[]>('/data/provider-configurations/balances', { ids }, { silent: true }),
    enabled: ids.length > 0,
  });
  const byId = new Map((balances.data ?? []).map((entry) => [entry.providerConfigId, entry]));
  return {
    loading: configs.isPending || (ids.length > 0 && balances.isPending),
    entries: first.map((config) => ({ config, balance: byId.get(config.id) })),
  };
}
