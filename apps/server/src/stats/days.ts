/**
 * Local days of the account's time zone over the hourly rollup. An hour counts in the local day its start
 * falls in (for half-hour zones that moves up to 30 minutes across midnight). Within a range the zone's
 * offset changes only at daylight-saving switches, so SQL turns an hour into a local day with one
 * `(hour * 60 + offset) / 1440` per stretch of constant offset instead of one branch per day.
 */
import { findTimeZone } from '@herald/shared/reference';
import { sql } from 'kysely';
import { HOUR_MS } from '../messages/ledger.js';

const DAY_MS = 86_400_000;
const MINUTES_PER_DAY = 1440;

export interface Zone {
  /** IANA name when the runtime knows it. */
  name: string | null;
  /** Fixed offset in minutes, used when the name is unknown. */
  fallbackMinutes: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(name: string): Intl.DateTimeFormat | null {
  const known = formatters.get(name);
  if (known) return known;
  try {
    const formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: name,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(name, formatter);
    return formatter;
  } catch {
    return null;
  }
}

export function zoneOfAccount(timeZoneId: string): Zone {
  const entry = findTimeZone(timeZoneId);
  const name = entry?.utc[0] ?? null;
  return {
    name: name && formatterFor(name) ? name : null,
    fallbackMinutes: Math.round((entry?.offset ?? 0) * 60),
  };
}

/** Minutes the zone's clock is ahead of UTC at `epochMs`. */
export function offsetMinutes(zone: Zone, epochMs: number): number {
  const formatter = zone.name ? formatterFor(zone.name) : null;
  if (!formatter) return zone.fallbackMinutes;
  const parts: Record<string, number> = {};
  for (const part of formatter.formatToParts(new Date(epochMs))) parts[part.type] = Number(part.value);
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return Math.round((wall - Math.floor(epochMs / 1000) * 1000) / 60_000);
}

/** Days since the epoch of a YYYY-MM-DD date. */
export function dayNumber(date: string): number {
  return Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
}

export function dateOfDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** The local day (days since the epoch) the zone's clock shows at `epochMs`. */
export function localDay(zone: Zone, epochMs: number): number {
  return Math.floor((epochMs + offsetMinutes(zone, epochMs) * 60_000) / DAY_MS);
}

/** The instant the local day starts. */
export function startOfLocalDay(zone: Zone, day: number): number {
  const wall = day * DAY_MS;
  const guess = wall - offsetMinutes(zone, wall) * 60_000;
  return wall - offsetMinutes(zone, guess) * 60_000;
}

export interface DayWindow {
  firstDay: number;
  lastDay: number;
  /** Rollup hours [fromHour, toHour) whose start falls in the window. */
  fromHour: number;
  toHour: number;
  /** Epoch ms [from, to) of the window, for queries on message times. */
  from: number;
  to: number;
  /** Stretches of constant offset, in hour order; each holds from its hour to the next one's. */
  stretches: { fromHour: number; offset: number }[];
}

export function dayWindow(zone: Zone, firstDay: number, lastDay: number): DayWindow {
  const from = startOfLocalDay(zone, firstDay);
  const to = startOfLocalDay(zone, lastDay + 1);
  const fromHour = Math.ceil(from / HOUR_MS);
  const toHour = Math.ceil(to / HOUR_MS);
  const stretches = [{ fromHour, offset: offsetMinutes(zone, fromHour * HOUR_MS) }];
  // The offset is checked once a day; a day whose end differs is searched hour by hour for the switch.
  let hour = fromHour;
  while (hour < toHour) {
    const next = Math.min(hour + 24, toHour);
    const current = stretches[stretches.length - 1]!.offset;
    if (offsetMinutes(zone, (next - 1) * HOUR_MS) !== current) {
      for (let h = hour + 1; h < next; h++) {
        const offset = offsetMinutes(zone, h * HOUR_MS);
        if (offset !== stretches[stretches.length - 1]!.offset) stretches.push({ fromHour: h, offset });
      }
    }
    hour = next;
  }
  return { firstDay, lastDay, fromHour, toHour, from, to, stretches };
}

/** SQL for the local day of the rollup's `hour` column, inside the window. */
export function localDayOfHour(window: DayWindow) {
  const dayOf = (offset: number) => sql<number>`(hour * 60 + ${sql.lit(offset)}) / ${sql.lit(MINUTES_PER_DAY)}`;
  const [first, ...rest] = window.stretches;
  if (rest.length === 0) return dayOf(first!.offset);
  const branches = window.stretches.map((stretch, index) => {
    const next = window.stretches[index + 1];
    return next ? sql`when hour < ${sql.lit(next.fromHour)} then ${dayOf(stretch.offset)}` : sql`else ${dayOf(stretch.offset)}`;
  });
  return sql<number>`(case ${sql.join(branches, sql` `)} end)`;
}
