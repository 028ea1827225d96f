/** Picks the sign-up default time zone from the browser. */
import { TIME_ZONES, type TimeZoneEntry } from '@herald/shared/reference';

export function guessTimeZone(): TimeZoneEntry | undefined {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const offset = -new Date().getTimezoneOffset() / 60;
  return (
    TIME_ZONES.find((entry) => entry.utc.includes(zone)) ??
    TIME_ZONES.find((entry) => entry.offset === offset) ??
    TIME_ZONES.find((entry) => entry.value === 'UTC')
  );
}
