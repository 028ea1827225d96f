/** Calls and shapes of the API keys and status webhook screens (server: api-keys/ and webhooks/ routes). */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { http } from '../../api/http';

export type KeyScope = 'send' | 'read';

export interface ApiKey {
  id: number;
  name: string;
  scope: KeyScope;
  keyStart: string;
  rateLimit: number;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

export interface CreatedKey extends ApiKey {
  /** The only time the key is shown. */
  key: string;
}

export interface KeyBody {
  name: string;
  scope: KeyScope;
  rateLimit?: number;
}

export type WebhookEvents = 'api' | 'all';

export interface Webhook {
  url: string | null;
  enabled: boolean;
  events: WebhookEvents;
  createdAt: number | null;
  updatedAt: number | null;
  /** Only in the answer of the first save. */
  secret?: string;
}

export interface WebhookBody {
  url: string;
  enabled: boolean;
  events: WebhookEvents;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed';

export interface Delivery {
  id: number;
  type: string;
  messageId: number | null;
  status: string | null;
  previousStatus: string | null;
  state: DeliveryState;
  attempts: number;
  responseCode: number | null;
  lastError: string | null;
  at: number;
  nextAttemptAt: number | null;
  deliveredAt: number | null;
}

const KEYS = '/data/api-keys';
const WEBHOOKS = '/data/webhooks';

export const KEYS_KEY = ['api-keys'] as const;
export const WEBHOOK_KEY = ['webhook'] as const;
export const DELIVERIES_KEY = ['webhook-deliveries'] as const;

/** Default and ceiling of a key's requests per second (the server's DEFAULT_RATE_LIMIT and MAX_RATE_LIMIT). */
export const DEFAULT_RATE_LIMIT = 100;
export const MAX_RATE_LIMIT = 10_000;

export const keysQuery = queryOptions({
  queryKey: KEYS_KEY,
  queryFn: () => http.get<{ items: ApiKey[] }>(KEYS).then((answer) => answer.items),
});

export const webhookQuery = queryOptions({ queryKey: WEBHOOK_KEY, queryFn: () => http.get<Webhook>(WEBHOOKS) });

export function deliveriesQuery(page: number, size: number, state: DeliveryState | undefined) {
  return queryOptions({
    queryKey: [...DELIVERIES_KEY, page, size, state ?? 'all'],
    queryFn: () => http.get<{ total: number; items: Delivery[] }>(`${WEBHOOKS}/deliveries`, { page, size, state }),
    placeholderData: keepPreviousData,
    // New events arrive while the screen is open.
    refetchInterval: 5000,
  });
}

export const keysApi = {
  create: (body: KeyBody) => http.post<CreatedKey>(KEYS, body, { silent: true }),
  revoke: (id: number) => http.delete<ApiKey>(`${KEYS}/${id}`),
};

export const webhooksApi = {
  save: (body: WebhookBody) => http.put<Webhook>(WEBHOOKS, body, { silent: true }),
  remove: () => http.delete<unknown>(WEBHOOKS),
  rotateSecret: () => http.post<{ secret: string }>(`${WEBHOOKS}/secret`),
  sendTest: () => http.post<Delivery>(`${WEBHOOKS}/test`),
};
