/**
 * Date helpers from the spec (sections 4 and 9): timestamps shown in the user's time zone,
 * 10-digit numbers read as seconds, and a translated "time ago".
 */
import dayjs, { type Dayjs } from 'dayjs';
import 'dayjs/locale/ru';
import 'dayjs/locale/uk';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import i18next from 'i18next';

dayjs.extend(utc);
dayjs.extend(timezone);

export const DEFAULT_PATTERN = 'YYYY-MM-DD HH:mm:ss';

export type DateInput = Date | Dayjs | number | string | null | undefined;

/** The user's zone as the session gives it: IANA name(s) in `utc` and an hour offset as a fallback. */
export interface DisplayTimeZone {
  utc?: string | readonly string[];
  offset?: number;
}

let displayZone: DisplayTimeZone | undefined;

/** Set once the user is known so every formatted date follows their zone, not the browser's. */
export function setDisplayTimeZone(zone: DisplayTimeZone | undefined): void {
  displayZone = zone;
}

function setDateLocale(language: string | undefined): void {
  dayjs.locale(language === 'ru' || language === 'uk' ? language : 'en');
}

// Month and weekday names follow the interface language from whenever this module is first needed.
setDateLocale(i18next.language);
i18next.on('languageChanged', setDateLocale);

function isKnownZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** Reads 10-digit numbers (or numeric strings) as Unix seconds, everything else as dayjs would. */
export function toDayjs(value: DateInput): Dayjs | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  let input: Date | Dayjs | number | string = value;
  if (typeof input === 'string' && /^\d+$/.test(input.trim())) input = Number(input.trim());
  if (typeof input === 'number') input = String(Math.trunc(Math.abs(input))).length === 10 ? input * 1000 : input;
  const parsed = dayjs(input);
  return parsed.isValid() ? parsed : undefined;
}

function inZone(moment: Dayjs, zone: DisplayTimeZone | undefined): Dayjs {
  const names = typeof zone?.utc === 'string' ? [zone.utc] : (zone?.utc ?? []);
  const name = names.find(isKnownZone);
  if (name) return moment.tz(name);
  if (typeof zone?.offset === 'number' && Number.isFinite(zone.offset)) return moment.utcOffset(zone.offset * 60);
  return moment;
}

/** Formats a timestamp in the user's zone; empty string for a missing or unreadable value. */
export function formatTime(
  value: DateInput,
  pattern: string = DEFAULT_PATTERN,
  zone: DisplayTimeZone | undefined = displayZone,
): string {
  const moment = toDayjs(value);
  return moment ? inZone(moment, zone).format(pattern) : '';
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** Under an hour in minutes, under a day in hours, else days (spec section 4); under a minute reads "just now". */
export function timeAgo(value: DateInput, now: number = Date.now()): string {
  const moment = toDayjs(value);
  if (!moment) return '';
  const elapsed = Math.max(0, now - moment.valueOf());
  if (elapsed < MINUTE_MS) return i18next.t('utils:timeAgo.justNow');
  if (elapsed < HOUR_MS) return i18next.t('utils:timeAgo.minutes', { count: Math.floor(elapsed / MINUTE_MS) });
  if (elapsed < DAY_MS) return i18next.t('utils:timeAgo.hours', { count: Math.floor(elapsed / HOUR_MS) });
  return i18next.t('utils:timeAgo.days', { count: Math.floor(elapsed / DAY_MS) });
}
