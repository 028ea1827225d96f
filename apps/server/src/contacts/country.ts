/**
 * A list's default country (the one national phone numbers are read in) is chosen by the user; the account's
 * time zone and language only suggest one, and only when they point at a single country, since one zone entry
 * spans many countries (Helsinki, Kyiv, Riga…) and a wrong guess would turn national numbers into foreign ones.
 */
import { COUNTRIES, findTimeZone } from '@herald/shared/reference';
import { canonicalZone } from '../lib/time-zone.js';

/** Intl Locale Info: a getter in Node 20, a method in later engines. */
interface LocaleWithZones {
  timeZones?: string[];
  getTimeZones?: () => string[] | undefined;
}

let countriesByZone: Map<string, string[]> | undefined;

function countriesOfZone(zone: string): string[] {
  if (!countriesByZone) {
    countriesByZone = new Map();
    for (const { code } of COUNTRIES) {
      const locale = new Intl.Locale(`und-${code}`) as unknown as LocaleWithZones;
      for (const listed of locale.getTimeZones?.() ?? locale.timeZones ?? []) {
        const canonical = canonicalZone(listed) ?? listed;
        countriesByZone.set(canonical, [...(countriesByZone.get(canonical) ?? []), code]);
      }
    }
  }
  const canonical = canonicalZone(zone);
  return canonical ? (countriesByZone.get(canonical) ?? []) : [];
}

/** Countries an interface language points at, most likely first. */
const COUNTRIES_OF_LANGUAGE: Record<string, string[]> = {
  uk: ['UA'],
  ru: ['RU', 'BY', 'KZ'],
  en: ['US', 'GB', 'CA', 'AU', 'NZ', 'IE'],
};

export function suggestCountry(timeZoneId: string, language: string | null): string | null {
  const zone = findTimeZone(timeZoneId);
  // The "Coordinated Universal Time±N" entries are offsets, not places: UTC's lists Greenland's Danmarkshavn beside Etc/GMT.
  if (!zone || zone.value.startsWith('UTC')) return null;
  const candidates = new Set(zone.utc.flatMap(countriesOfZone));
  if (candidates.size === 1) return [...candidates][0]!;
  return COUNTRIES_OF_LANGUAGE[language ?? '']?.find((code) => candidates.has(code)) ?? null;
}
