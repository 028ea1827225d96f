/**
 * The schedule picker works in the account's time zone: antd's DatePicker shows a dayjs in the browser's
 * zone, so its wall-clock reading is taken as the account's and converted to epoch milliseconds here.
 */
import { LANGUAGES, type Language } from '@herald/shared';
import { TIME_ZONES } from '@herald/shared/reference';
import dayjs, { type Dayjs } from 'dayjs';
import { formatTime } from '../../../utils/date';

export interface AccountZone {
  id?: string;
  utc?: string;
  offset?: number;
}

/** The zone's name in the reader's language ("International Date Line West"), its offset left to offsetLabel. */
export function zoneName(zone: AccountZone | undefined, language: string): string {
  const entry = TIME_ZONES.find((candidate) => candidate.id === zone?.id);
  if (!entry) return zone?.utc ?? '';
  const label = (LANGUAGES as readonly string[]).includes(language) ? entry[language as Language] || entry.en : entry.en;
  return label.replace(/^\(UTC[^)]*\)\s*/, '');
}

const WALL_CLOCK = 'YYYY-MM-DDTHH:mm:ss';

function knownName(zone: AccountZone | undefined): string | undefined {
  if (!zone?.utc) return undefined;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone.utc });
    return zone.utc;
  } catch {
    return undefined;
  }
}

/** A browser-zone dayjs whose wall clock reads what the account's clock reads at `epochMs`. */
export function wallClock(epochMs: number, zone: AccountZone | undefined): Dayjs {
  return dayjs(formatTime(epochMs, WALL_CLOCK, zone));
}

/** The instant at which the account's clock reads the picker's wall clock. */
export function toEpoch(value: Dayjs, zone: AccountZone | undefined): number {
  const wall = value.format(WALL_CLOCK);
  const name = knownName(zone);
  if (name) return dayjs.tz(wall, name).valueOf();
  return dayjs
    .utc(wall)
    .subtract(zone?.offset ?? 0, 'hour')
    .valueOf();
}

/** "UTC+05:30": the zone's offset now (daylight saving included), else the session's offset in hours. */
export function offsetLabel(zone: AccountZone | undefined): string {
  const name = knownName(zone);
  const minutes = name ? dayjs().tz(name).utcOffset() : Math.round((zone?.offset ?? 0) * 60);
  const sign = minutes < 0 ? '−' : '+';
  const absolute = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(absolute / 60)).padStart(2, '0')}:${String(absolute % 60).padStart(2, '0')}`;
}
