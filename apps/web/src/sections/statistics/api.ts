/** Calls and shapes of reports, the message log and its lookups (configs, campaigns, template categories). */
import type { MessageStatus } from '@herald/shared';
import { queryOptions } from '@tanstack/react-query';
import { http } from '../../api/http';
import type { StatisticsChannel } from './channel';

export type StatusCounts = Partial<Record<MessageStatus, number>>;

export interface Breakdown {
  /** 0: no config yet (unsent, filtered) or no campaign (API messages). */
  id: number;
  name: string | null;
  total: number;
  counts: StatusCounts;
}

export interface Report {
  from: string;
  to: string;
  total: number;
  counts: StatusCounts;
  deliveryRate: number | null;
  readRate: number | null;
  days: { date: string; total: number; counts: StatusCounts; deliveryRate: number | null; readRate: number | null }[];
  configs: Breakdown[];
  campaigns: Breakdown[];
}

export interface ReportFilter {
  dayCount?: number;
  /** Two YYYY-MM-DD days of the account's time zone, inclusive. */
  dateRange?: [string, string];
  category?: number;
}

export interface LogEntry {
  id: number;
  status: MessageStatus;
  time: number;
  createdAt: number;
  recipient: string;
  template: string | null;
  configId: number | null;
  providerConfig: string | null;
  providerMessage: string | null;
  providerMessageId: string | null;
  attempts: number;
  retries: number;
  locale: string | null;
  campaignId: number | null;
  campaign: string | null;
  campaignState: string | null;
}

export interface LogMessage extends LogEntry {
  channel: string;
  history: { status: MessageStatus; at: number; detail: string | null; configId: number | null; providerConfig: string | null }[];
}

export interface LogPage {
  total: number;
  capped: boolean;
  items: LogEntry[];
}

export interface LogFilter {
  status?: MessageStatus;
  recipient?: string;
  dateRange?: [string, string];
  configId?: number;
  campaignId?: number;
  page: number;
  size: number;
}

const STATS_KEY = ['statistics'] as const;

export function reportQuery(channel: StatisticsChannel, filter: ReportFilter) {
  return queryOptions({
    queryKey: [...STATS_KEY, 'report', channel, filter],
    queryFn: () => http.get<Report>(`/data/statistics/${channel}/reports`, { ...filter }),
    placeholderData: (previous) => previous,
  });
}

export function reportCsv(channel: StatisticsChannel, filter: ReportFilter): Promise<string> {
  return http.get<string>(`/data/statistics/${channel}/reports.csv`, { ...filter });
}

export function logQuery(channel: StatisticsChannel, filter: LogFilter) {
  return queryOptions({
    queryKey: [...STATS_KEY, 'log', channel, filter],
    queryFn: () => http.get<LogPage>(`/data/messages/${channel}`, { ...filter }),
    placeholderData: (previous) => previous,
  });
}

export function messageQuery(channel: StatisticsChannel, id: number | undefined) {
  return queryOptions({
    queryKey: [...STATS_KEY, 'message', channel, id],
    queryFn: () => http.get<LogMessage>(`/data/messages/${channel}/${id}`),
    enabled: id !== undefined,
  });
}

export interface NamedEntry {
  id: number;
  name: string;
  category?: string;
  channel?: string;
}

export const categoriesQuery = queryOptions({
  queryKey: ['template-categories', 'all'],
  queryFn: () => http.get<NamedEntry[]>('/data/template-categories'),
});

export const configsQuery = queryOptions({
  queryKey: ['provider-configurations', 'custom', 'full'],
  queryFn: () => http.get<NamedEntry[]>('/data/provider-configurations/custom'),
});

/** The server's largest page: the campaign filter offers the 100 newest campaigns. */
export const campaignsQuery = queryOptions({
  queryKey: ['campaigns', 'list', 'all', 1, 100],
  queryFn: () => http.get<{ total: number; items: NamedEntry[] }>('/data/campaigns', { page: 1, size: 100 }),
});
