/**
 * Local days of the account's time zone over the rollups. An hour counts in the local day its start
 * falls in (for half-hour zones that moves up to 30 minutes across midnight). Within a range the zone's
 * offset changes only at daylight-saving switches, so an hour's local day is `(hour * 60 + offset) / 1440`
 * with the offset of its stretch of constant offset.
 */
import { findTimeZone } from '@herald/shared/reference';
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

/**
 * How a report reads a window: each UTC day of the daily rollup is counted whole in the local day most of its
 * hours belong to, and its other hours are moved with their hourly rows: taken off that local day and counted in
 * their own (or in none, outside the window). An account in UTC reads no hourly rows; one at UTC+3 reads 3 a day.
 */
export interface RollupPlan {
  /** UTC days read from the daily rollup, each counted in one local day. */
  days: { utcDay: number; localDay: number }[];
  /** Hours read from the hourly rollup: minus the local day their UTC day went to, plus their own (null: none). */
  hours: { hour: number; minusDay: number | null; plusDay: number | null }[];
}

/** The plan for hours [fromHour, toHour) counted in the day `dayOfHour` gives each. */
function planFor(fromHour: number, toHour: number, dayOfHour: (hour: number) => number): RollupPlan {
  const plan: RollupPlan = { days: [], hours: [] };
  for (let utcDay = Math.floor(fromHour / 24); utcDay * 24 < toHour; utcDay++) {
    const targets = Array.from({ length: 24 }, (_, h) => {
      const hour = utcDay * 24 + h;
      return hour < fromHour || hour >= toHour ? null : dayOfHour(hour);
    });
    const tally = new Map<number | null, number>();
    for (const target of targets) tally.set(target, (tally.get(target) ?? 0) + 1);
    const [whole] = [...tally.entries()].reduce((best, entry) => (entry[1] > best[1] ? entry : best));
    if (whole !== null) plan.days.push({ utcDay, localDay: whole });
    targets.forEach((target, h) => {
      if (target !== whole) plan.hours.push({ hour: utcDay * 24 + h, minusDay: whole, plusDay: target });
    });
  }
  return plan;
}

/** Each hour of the window in its local day. */
export function rollupPlan(window: DayWindow): RollupPlan {
  const { stretches } = window;
  let stretch = 0;
  return planFor(window.fromHour, window.toHour, (hour) => {
    while (stretch + 1 < stretches.length && stretches[stretch + 1]!.fromHour <= hour) stretch++;
    return Math.floor((hour * 60 + stretches[stretch]!.offset) / MINUTES_PER_DAY);
  });
}

/** The whole window as one day (its first): edge hours only at its two ends. */
export function windowPlan(window: DayWindow): RollupPlan {
  return planFor(window.fromHour, window.toHour, () => window.firstDay);
}
