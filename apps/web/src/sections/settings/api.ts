/** Calls and shapes of Settings (server: hooks/ routes, the account calls of auth/, the bounce address of providers/). */
import type { NotifyEvent } from '@herald/shared';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { http } from '../../api/http';

export interface HookSettings {
  /** Masked: host and last characters. */
  slackUrl: string | null;
  configured: boolean;
  senderName: string;
  events: NotifyEvent[];
  balanceThreshold: number | null;
}

export interface HookSettingsBody {
  /** Omitted keeps the saved URL; null removes it. */
  slackUrl?: string | null;
  senderName: string;
  events: NotifyEvent[];
  balanceThreshold: number | null;
}

export type DeliveryStatus = 'pending' | 'sent' | 'failed';

export interface HookDelivery {
  id: number;
  event: NotifyEvent | 'test';
  text: string;
  status: DeliveryStatus;
  attempts: number;
  responseStatus: number | null;
  error: string | null;
  createdAt: string;
  nextAttemptAt: string | null;
  finishedAt: string | null;
}

export interface TestOutcome {
  ok: boolean;
  status: number | null;
  error: string | null;
}

export const HOOKS_KEY = ['settings', 'hooks'] as const;
export const HOOK_DELIVERIES_KEY = ['settings', 'hook-deliveries'] as const;
export const BOUNCE_KEY = ['settings', 'bounce-address'] as const;

export const hookSettingsQuery = queryOptions({
  queryKey: HOOKS_KEY,
  queryFn: () => http.get<HookSettings>('/data/hooks/settings'),
});

export const hookDeliveriesQuery = (page: number, size: number) =>
  queryOptions({
    queryKey: [...HOOK_DELIVERIES_KEY, page, size],
    queryFn: () => http.get<{ total: number; items: HookDelivery[] }>('/data/hooks/deliveries', { page, size }),
    placeholderData: keepPreviousData,
    // Queued notices are retried in the background: keep the log moving while any is pending.
    refetchInterval: (query) => (query.state.data?.items.some((item) => item.status === 'pending') ? 3000 : false),
  });

export const bounceAddressQuery = queryOptions({
  queryKey: BOUNCE_KEY,
  queryFn: () => http.get<{ address: string | null }>('/data/provider-configurations/bounce-address'),
});

export const settingsApi = {
  saveHooks: (body: HookSettingsBody) => http.put<HookSettings>('/data/hooks/settings', body, { silent: true }),
  testHook: (body: { slackUrl?: string; senderName?: string }) =>
    http.post<TestOutcome>('/data/hooks/test', body, { silent: true }),
  saveBounceAddress: (address: string | null) =>
    http.put<{ address: string | null }>('/data/provider-configurations/bounce-address', { address }, { silent: true }),
  changeName: (name: string) => http.post('/data/users/change-name', { name }, { silent: true }),
  changeTimeZone: (id: string, offset: number) => http.post('/data/users/change-timezone', { id, offset }, { silent: true }),
  changeLanguage: (language: string) => http.post('/data/users/change-language', { language }, { silent: true }),
  changeAvatar: (avatar: string) => http.postText('/data/users/avatar', avatar, { silent: true }),
  changePassword: (body: { oldPassword: string; newPassword: string; confirmPassword: string }) =>
    http.post('/data/users/change-password', body, { silent: true }),
  deleteAccount: (confirmation: string) => http.post('/data/users/delete-account', { confirmation }, { silent: true }),
};
