/** Server status (spec section 4: up or down) from GET /health, shared by the top bar and the dashboard. */
import { useQuery } from '@tanstack/react-query';
import { http } from '../api/http';

const HEALTH_INTERVAL_MS = 30_000;

export type ServerStatus = 'up' | 'down' | 'checking';

export function useServerHealth(): { status: ServerStatus; checkedAt?: number } {
  const query = useQuery({
    queryKey: ['health'],
    // Silent: a down server is shown by the status dot, not by a toast every 30 s.
    queryFn: () => http.get<{ status?: string }>('/health', undefined, { silent: true }),
    refetchInterval: HEALTH_INTERVAL_MS,
    retry: false,
  });
  if (query.isPending) return { status: 'checking' };
  const up = query.isSuccess && query.data?.status === 'up';
  return { status: up ? 'up' : 'down', checkedAt: Math.max(query.dataUpdatedAt, query.errorUpdatedAt) };
}
