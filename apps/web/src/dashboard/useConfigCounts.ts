/** Provider config counts per category (spec: "a config count is kept per category"). */
import { useQuery } from '@tanstack/react-query';
import { providerConfigsQuery } from '../layout/accountData';

export interface ConfigCounts {
  EMAIL: number;
  SMS: number;
}

export function useConfigCounts(): { counts: ConfigCounts; loading: boolean } {
  const query = useQuery(providerConfigsQuery);
  // A list that cannot be read counts as empty, so the dashboard shows zeros instead of failing.
  const list = Array.isArray(query.data) ? query.data : [];
  const counts: ConfigCounts = { EMAIL: 0, SMS: 0 };
  for (const config of list) if (config.category === 'EMAIL' || config.category === 'SMS') counts[config.category] += 1;
  return { counts, loading: query.isPending };
}
