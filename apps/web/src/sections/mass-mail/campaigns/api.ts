/** Calls and shapes of campaigns, and the lookups the wizard and the campaign screens name things with. */
import type { CampaignState, ChannelCategory, MessageStatus, SmsSegments } from '@herald/shared';
import { queryOptions } from '@tanstack/react-query';
import { http } from '../../../api/http';
import type { TestSendResult } from '../../templates/api';

const CAMPAIGNS = '/data/campaigns';
const TEMPLATES = '/data/templates';
/** The server's largest page; the wizard's pickers show one page of lists and templates. */
export const LOOKUP_SIZE = 100;

export type StatusCounts = Partial<Record<MessageStatus, number>>;

export interface Campaign {
  id: number;
  name: string;
  channel: ChannelCategory;
  state: CampaignState;
  listId: number | null;
  templateId: number | null;
  groupId: number | null;
  configId: number | null;
  /** Where messages the campaign's channel cannot deliver go instead; null when they do not. */
  fallback: {
    channel: ChannelCategory;
    templateId: number;
    templateName: string | null;
    groupId: number | null;
    configId: number | null;
  } | null;
  unreadAfterHours: number;
  scheduledAt: number | null;
  startedAt: number | null;
  finishedAt: number | null;
  total: number;
  suppressed: number;
  detail: string | null;
  counts: StatusCounts;
  /** Messages a provider's spent day or month limit holds back, and when the first of them goes. */
  waitingForLimit: { limit: 'day' | 'month'; until: number } | null;
  createdAt: number;
  updatedAt: number;
}

export interface CampaignBody {
  name: string;
  channel: ChannelCategory;
  listId: number;
  templateName: string;
  /** One of the two; the other is left out rather than sent as null, which the server would read as 0. */
  groupId?: number;
  configId?: number;
  /** A template of the other channel and its route (one of the two ids), or null for no fallback. */
  fallback?: { templateName: string; groupId?: number; configId?: number } | null;
}

export interface CampaignCheck {
  recipients: number;
  suppressed: number;
  smsParts: number | null;
  estimatedParts: number | null;
  /** The parts' cost at the route's first config, when it has a price per part, beside its last balance. */
  estimatedCost: {
    configId: number;
    configName: string;
    amount: number;
    balance: number | null;
    currency: string | null;
  } | null;
  /** Messages the route's configs may still send this day and month; null when one of them has no limit. */
  limitHeadroom: number | null;
}

/** One tick of the progress stream. */
export interface CampaignProgress {
  id: number;
  state: CampaignState;
  total: number;
  counts: StatusCounts;
}

export interface LogEntry {
  id: number;
  recipient: string;
  status: MessageStatus;
  attempts: number;
  providerConfig: string | null;
  providerMessage: string | null;
  providerMessageId: string | null;
  locale: string | null;
  time: number;
}

export interface ContactList {
  id: number;
  name: string;
  counts: { total: number; withEmail: number; withPhone: number };
}

export interface TemplateSummary {
  id: number;
  name: string;
  channel: ChannelCategory;
  subject: string;
}

export interface TemplatePreview {
  subject: string;
  html: string;
  smsText: string;
  segments: SmsSegments | null;
}

export interface Page<T> {
  total: number;
  items: T[];
}

export const CAMPAIGNS_KEY = ['campaigns'] as const;
export const LISTS_KEY = [...CAMPAIGNS_KEY, 'list'] as const;

export function campaignsQuery(state: CampaignState | undefined, page: number, size: number) {
  return queryOptions({
    queryKey: [...LISTS_KEY, state ?? 'all', page, size],
    queryFn: () => http.get<Page<Campaign>>(CAMPAIGNS, { state, page, size }),
    placeholderData: (previous) => previous,
  });
}

export function campaignKey(id: number) {
  return [...CAMPAIGNS_KEY, 'one', id] as const;
}

export function campaignQuery(id: number) {
  return queryOptions({
    queryKey: campaignKey(id),
    queryFn: () => http.get<Campaign>(`${CAMPAIGNS}/${id}`),
    enabled: Number.isInteger(id) && id > 0,
  });
}

export function checkQuery(id: number | undefined) {
  return queryOptions({
    queryKey: [...CAMPAIGNS_KEY, 'check', id],
    queryFn: () => http.get<CampaignCheck>(`${CAMPAIGNS}/${id}/check`),
    enabled: id !== undefined,
    // Recipients change as contacts unsubscribe; the last step always asks again.
    staleTime: 0,
  });
}

export function logKey(id: number) {
  return [...CAMPAIGNS_KEY, 'log', id] as const;
}

export function logQuery(id: number, status: MessageStatus | undefined, page: number, size: number) {
  return queryOptions({
    queryKey: [...logKey(id), status ?? 'all', page, size],
    queryFn: () => http.get<Page<LogEntry>>(`${CAMPAIGNS}/${id}/messages`, { status, page, size }),
    placeholderData: (previous) => previous,
  });
}

export const contactListsQuery = queryOptions({
  queryKey: ['contact-lists', 'campaign-picker'],
  queryFn: () => http.get<Page<ContactList>>('/data/contact-lists', { page: 1, size: LOOKUP_SIZE }),
});

/** Under the templates section's key prefix, so a template saved there refreshes this list too. */
export function templatesQuery(channel: ChannelCategory) {
  return queryOptions({
    queryKey: ['templates', 'campaign-picker', channel],
    queryFn: () => http.get<Page<TemplateSummary>>(TEMPLATES, { channel, page: 1, size: LOOKUP_SIZE }),
  });
}

export function previewQuery(name: string | undefined) {
  return queryOptions({
    queryKey: ['templates', 'campaign-preview', name],
    queryFn: () => http.post<TemplatePreview>(`${TEMPLATES}/preview`, { name }),
    enabled: Boolean(name),
  });
}

// Saves are silent: the wizard puts field errors on the step that owns the field.
export const campaignsApi = {
  save: (id: number | undefined, body: CampaignBody) =>
    id === undefined
      ? http.post<Campaign>(CAMPAIGNS, body, { silent: true })
      : http.put<Campaign>(`${CAMPAIGNS}/${id}`, body, { silent: true }),
  start: (id: number, scheduledAt: number | null) => http.post<Campaign>(`${CAMPAIGNS}/${id}/start`, { scheduledAt }),
  act: (id: number, action: 'pause' | 'resume' | 'cancel' | 'duplicate') => http.post<Campaign>(`${CAMPAIGNS}/${id}/${action}`),
  remove: (id: number) => http.delete<unknown>(`${CAMPAIGNS}/${id}`),
  testSend: (templateName: string, providerConfigId: number, to: string) =>
    http.post<TestSendResult>(
      `${TEMPLATES}/${encodeURIComponent(templateName)}/test-send`,
      { providerConfigId, to },
      { silent: true },
    ),
};
