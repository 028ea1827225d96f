/** Reports, the message log and the dashboard of one account, in the account's time-zone days. */

import {
  DEFAULT_REPORT_DAYS,
  type Language,
  LOG_COUNT_CAP,
  MAX_REPORT_DAYS,
  MESSAGE_STATUSES,
  REACHED_STATUSES,
} from '@herald/shared';
import { detailText } from '@herald/shared/message-details';
import type { Db } from '../db/database.js';
import { invalidField, notFound } from '../http/errors.js';
import { emailRecipient, phoneRecipient } from '../messages/recipient.js';
import { ACCEPTED_STATUSES } from '../messages/status.js';
import { dateOfDay, dayNumber, dayWindow, localDay, type Zone } from './days.js';
import * as q from './queries.js';

export interface StatsDeps {
  db: Db;
}

export type ChannelName = 'email' | 'sms';
const CHANNEL: Record<ChannelName, string> = { email: 'EMAIL', sms: 'SMS' };

type Counts = Record<string, number>;

function add(counts: Counts, status: string, n: number) {
  counts[status] = (counts[status] ?? 0) + n;
}

const sum = (counts: Counts) => Object.values(counts).reduce((total, n) => total + n, 0);

/** Reached over accepted, and read over reached; null when there is nothing to divide by. */
export function rates(counts: Counts): { deliveryRate: number | null; readRate: number | null } {
  const accepted = ACCEPTED_STATUSES.reduce((total, status) => total + (counts[status] ?? 0), 0);
  const reached = REACHED_STATUSES.reduce((total, status) => total + (counts[status] ?? 0), 0);
  return {
    deliveryRate: accepted === 0 ? null : reached / accepted,
    readRate: reached === 0 ? null : (counts.read ?? 0) / reached,
  };
}

function isRealDate(date: string): boolean {
  const time = Date.parse(`${date}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === date;
}

/** The local days a filter asks for: an explicit range, or the last dayCount days up to today. */
export function daysOf(
  zone: Zone,
  filter: { dayCount?: number | undefined; dateRange?: string[] | undefined },
  now = Date.now(),
): { firstDay: number; lastDay: number } {
  if (filter.dateRange) {
    const [first, last] = filter.dateRange as [string, string];
    if (!isRealDate(first) || !isRealDate(last)) throw invalidField('dateRange', { key: 'validation.invalidValue' });
    const firstDay = dayNumber(first);
    const lastDay = dayNumber(last);
    if (lastDay < firstDay) throw invalidField('dateRange', { key: 'stats.rangeReversed' });
    if (lastDay - firstDay + 1 > MAX_REPORT_DAYS)
      throw invalidField('dateRange', { key: 'stats.rangeTooLong', params: { n: MAX_REPORT_DAYS } });
    return { firstDay, lastDay };
  }
  const count = filter.dayCount ?? DEFAULT_REPORT_DAYS;
  if (count > MAX_REPORT_DAYS) throw invalidField('dayCount', { key: 'stats.rangeTooLong', params: { n: MAX_REPORT_DAYS } });
  const today = localDay(zone, now);
  return { firstDay: today - count + 1, lastDay: today };
}

async function breakdown(byId: Map<number, Counts>, names: (ids: number[]) => Promise<Map<number, string>>) {
  const known = await names([...byId.keys()].filter((id) => id !== 0));
  return [...byId.entries()]
    .map(([id, counts]) => ({ id, name: known.get(id) ?? null, total: sum(counts), counts }))
    .sort((a, b) => b.total - a.total || a.id - b.id);
}

export interface ReportFilter {
  dayCount?: number | undefined;
  dateRange?: string[] | undefined;
  category?: number | undefined;
}

export async function report(deps: StatsDeps, accountId: number, zone: Zone, channel: ChannelName, filter: ReportFilter) {
  const { firstDay, lastDay } = daysOf(zone, filter);
  if (filter.category !== undefined && !(await q.categoryExists(deps.db, accountId, filter.category)))
    throw invalidField('category', { key: 'validation.notInList' });
  const window = dayWindow(zone, firstDay, lastDay);
  const scope: q.RollupScope = { accountId, channel: CHANNEL[channel], categoryId: filter.category };
  const days = new Map<number, Counts>();
  for (let day = firstDay; day <= lastDay; day++) days.set(day, {});
  const counts: Counts = {};
  const byConfig = new Map<number, Counts>();
  const byCampaign = new Map<number, Counts>();
  const countIn = (map: Map<number, Counts>, id: number) => {
    const entry = map.get(id) ?? {};
    map.set(id, entry);
    return entry;
  };
  // Per day by status alone (edge hours of every day), per config and campaign over the whole window (edge hours of
  // its two ends only): the report never needs days crossed with configs and campaigns.
  const [byDay, buckets] = await Promise.all([q.countsByDay(deps.db, scope, window), q.windowCounts(deps.db, scope, window)]);
  for (const row of byDay) {
    const dayCounts = days.get(row.day);
    if (dayCounts) add(dayCounts, row.status, row.n);
  }
  for (const row of buckets) {
    add(counts, row.status, row.n);
    add(countIn(byConfig, row.configId), row.status, row.n);
    add(countIn(byCampaign, row.campaignId), row.status, row.n);
  }
  const [configs, campaigns] = await Promise.all([
    breakdown(byConfig, (ids) => q.configNames(deps.db, accountId, ids)),
    breakdown(byCampaign, (ids) => q.campaignNames(deps.db, accountId, ids)),
  ]);
  return {
    from: dateOfDay(firstDay),
    to: dateOfDay(lastDay),
    total: sum(counts),
    counts,
    ...rates(counts),
    days: [...days.entries()].map(([day, dayCounts]) => ({
      date: dateOfDay(day),
      total: sum(dayCounts),
      counts: dayCounts,
      ...rates(dayCounts),
    })),
    configs,
    campaigns,
  };
}

export type Report = Awaited<ReturnType<typeof report>>;

const CSV_STATUSES = MESSAGE_STATUSES;

function csvCell(value: string | number | null): string {
  const text = value === null ? '' : String(value);
  // A leading = + - @ would run as a formula in a spreadsheet.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The report as CSV: one line per day, then one per config and one per campaign, each with every status. */
export function reportCsv(report: Report): string {
  const header = ['section', 'key', 'name', 'total', ...CSV_STATUSES];
  const line = (section: string, key: string | number, name: string | null, total: number, counts: Counts) =>
    [section, key, name, total, ...CSV_STATUSES.map((status) => counts[status] ?? 0)].map(csvCell).join(',');
  return [
    header.join(','),
    ...report.days.map((day) => line('day', day.date, null, day.total, day.counts)),
    line('total', `${report.from}..${report.to}`, null, report.total, report.counts),
    ...report.configs.map((entry) => line('config', entry.id, entry.name, entry.total, entry.counts)),
    ...report.campaigns.map((entry) => line('campaign', entry.id, entry.name, entry.total, entry.counts)),
  ].join('\r\n');
}

export interface LogQuery {
  status?: string | undefined;
  recipient?: string | undefined;
  dateRange?: string[] | undefined;
  configId?: number | undefined;
  campaignId?: number | undefined;
  page: number;
  size: number;
}

function logEntry(row: q.LogRow, language: Language) {
  const attempts = Number(row.attempts);
  return {
    id: Number(row.id),
    status: row.status,
    time: Number(row.updated_at),
    createdAt: Number(row.created_at),
    recipient: row.recipient,
    template: row.template_name,
    configId: row.config_id === null ? null : Number(row.config_id),
    providerConfig: row.config_name,
    providerMessage: detailText(row.detail, language),
    providerMessageId: row.provider_message_id,
    attempts,
    retries: Math.max(0, attempts - 1),
    locale: row.locale,
    campaignId: row.campaign_id === null ? null : Number(row.campaign_id),
    campaign: row.campaign_name,
    campaignState: row.campaign_state,
  };
}

export async function messageLog(
  deps: StatsDeps,
  accountId: number,
  zone: Zone,
  channel: ChannelName,
  query: LogQuery,
  language: Language,
) {
  if (query.status !== undefined && !(MESSAGE_STATUSES as readonly string[]).includes(query.status))
    throw invalidField('status', { key: 'stats.unknownStatus', params: { value: query.status } });
  const filter: q.LogFilter = { accountId, channel: CHANNEL[channel] };
  if (query.status) filter.status = query.status;
  const typed = query.recipient?.trim();
  // Kept as the ledger keeps recipients, so any case of an address or spacing of a number finds them.
  if (typed) filter.recipient = (channel === 'email' ? emailRecipient(typed) : phoneRecipient(typed)) ?? typed;
  if (query.configId !== undefined) filter.configId = query.configId;
  if (query.campaignId !== undefined) filter.campaignId = query.campaignId;
  if (query.dateRange) {
    const { firstDay, lastDay } = daysOf(zone, { dateRange: query.dateRange });
    const window = dayWindow(zone, firstDay, lastDay);
    filter.from = window.from;
    filter.to = window.to;
  }
  const [count, rows] = await Promise.all([
    q.cappedLogCount(deps.db, filter),
    q.logPage(deps.db, filter, query.size, (query.page - 1) * query.size),
  ]);
  return {
    total: Math.min(count, LOG_COUNT_CAP),
    capped: count > LOG_COUNT_CAP,
    items: rows.map((row) => logEntry(row, language)),
  };
}

export async function logMessage(deps: StatsDeps, accountId: number, channel: ChannelName, id: number, language: Language) {
  const row = await q.findLogMessage(deps.db, accountId, CHANNEL[channel], id);
  if (!row) throw notFound();
  const events = await q.messageHistory(deps.db, accountId, id);
  return {
    ...logEntry(row, language),
    channel: row.channel,
    history: [
      // The message was created unsent; the ledger records only the moves after that.
      { status: 'unsent', at: Number(row.created_at), detail: null, configId: null, providerConfig: null },
      ...events.map((event) => ({
        status: event.status,
        at: Number(event.at),
        detail: detailText(event.detail, language),
        configId: event.config_id === null ? null : Number(event.config_id),
        providerConfig: event.config_name,
      })),
    ],
  };
}

const DASHBOARD_DAYS = 7;

export async function dashboard(deps: StatsDeps, accountId: number, zone: Zone, now = Date.now()) {
  const today = localDay(zone, now);
  const window = dayWindow(zone, today - DASHBOARD_DAYS + 1, today);
  const [byDay, running] = await Promise.all([
    q.countsByDay(deps.db, { accountId }, window),
    q.runningCampaigns(deps.db, accountId),
  ]);
  const days = new Map<number, { email: number; sms: number; reached: number }>();
  for (let day = window.firstDay; day <= today; day++) days.set(day, { email: 0, sms: 0, reached: 0 });
  const counts: Counts = {};
  for (const row of byDay) {
    const entry = days.get(row.day);
    if (!entry) continue;
    if (row.channel === 'SMS') entry.sms += row.n;
    else entry.email += row.n;
    if ((REACHED_STATUSES as readonly string[]).includes(row.status)) entry.reached += row.n;
    add(counts, row.status, row.n);
  }
  const todayEntry = days.get(today)!;
  return {
    today: todayEntry.email + todayEntry.sms,
    week: sum(counts),
    deliveryRate: rates(counts).deliveryRate,
    runningCampaigns: running,
    days: [...days.entries()].map(([day, entry]) => ({ date: dateOfDay(day), ...entry })),
  };
}
