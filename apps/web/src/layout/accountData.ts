/** Account data the layout loads up front (spec section 4: config types and configs on layout load). */
import { queryOptions } from '@tanstack/react-query';
import { http } from '../api/http';

/** The fields the layout reads; the configs screen types the full answer. */
export interface ProviderConfigSummary {
  type?: string;
  category?: string;
}

export interface ProviderTypeSummary {
  type: string;
  category: string;
}

// Silent: the layout and dashboard degrade to empty lists rather than toasting on every screen.
export const providerConfigsQuery = queryOptions({
  queryKey: ['provider-configurations', 'custom'],
  queryFn: () => http.get<ProviderConfigSummary[]>('/data/provider-configurations/custom', undefined, { silent: true }),
  retry: false,
});

export const providerTypesQuery = queryOptions({
  queryKey: ['provider-configurations', 'types'],
  queryFn: () => http.get<ProviderTypeSummary[]>('/data/provider-configurations/types', undefined, { silent: true }),
  retry: false,
  staleTime: Number.POSITIVE_INFINITY,
});
