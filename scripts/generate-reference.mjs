#!/usr/bin/env node
/**
 * Writes the reference data of the console spec's section 3 (time zones, languages, countries) as TypeScript
 * modules under packages/shared/src/reference/. Run from the repository root: `node scripts/generate-reference.mjs`.
 *
 * Sources: `timezones.json` (Windows-style zone list), `iso-639-1`, `i18n-iso-countries` and `libphonenumber-js`;
 * Russian and Ukrainian names come from Node's ICU (CLDR) through Intl, so the output depends only on these package
 * versions and the Node version. The generated files are committed; rerun this after upgrading any of them.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import countries from 'i18n-iso-countries';
import ISO6391 from 'iso-639-1';
import { getCountryCallingCode, isSupportedCountry } from 'libphonenumber-js';
import windowsZones from 'timezones.json';

const OUTPUT_DIR = resolve('packages/shared/src/reference');
const TIME_ZONE_COUNT = 96;
const TRANSLATED_LOCALES = ['ru', 'uk'];
/** Zone offsets are compared on these two days so the result does not depend on when the script runs. */
const WINTER_DAY = new Date(Date.UTC(2025, 0, 15));
const SUMMER_DAY = new Date(Date.UTC(2025, 6, 15));
/** ICU names UTC only in running-text forms in Ukrainian ("за всесвітнім координованим часом"), so both are given. */
const UTC_NAMES = { ru: 'Всемирное координированное время', uk: 'Всесвітній координований час' };
/** How many place names a translated zone label lists at most, to keep picker rows short. */
const MAX_LABEL_PLACES = 3;

function isKnownZone(zone) {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function zoneNamePart(zone, locale, style, date = WINTER_DAY) {
  const parts = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: style }).formatToParts(date);
  return parts.find((part) => part.type === 'timeZoneName')?.value ?? '';
}

/** Hours from UTC of an IANA zone on a day, from ICU's "GMT+03:30" form. */
function zoneOffsetHours(zone, date) {
  const match = zoneNamePart(zone, 'en', 'longOffset', date).match(/^GMT([+-])(\d{2}):(\d{2})$/);
  if (!match) return 0;
  const hours = Number(match[2]) + Number(match[3]) / 60;
  return match[1] === '-' ? -hours : hours;
}

/** Splits "(UTC+03:00) Moscow, St. Petersburg" into the offset prefix, its hours and the place part. */
function parseZoneText(text) {
  const match = text.match(/^(\(UTC(?:([+-])(\d{2}):(\d{2}))?\)) (.+)$/);
  if (!match) throw new Error(`Unexpected time-zone label: ${text}`);
  const hours = match[2] ? Number(match[3]) + Number(match[4]) / 60 : 0;
  return { prefix: match[1], hours: match[2] === '-' ? -hours : hours, places: match[5] };
}

const isSubset = (inner, outer) => inner.every((zone) => outer.includes(zone));

/**
 * The source has 108 entries; two rules bring it to 96 without choosing by hand:
 * 1. a daylight-saving twin (isdst) whose zones are all listed by a standard-time entry is dropped — the standard
 *    entry already offers those zones (Pacific/Eastern Daylight Time, British Summer Time, Kamchatka - Old);
 * 2. an entry whose label states an offset that none of its zones used in winter or summer 2025 is dropped, as its
 *    label would mislead (Mid-Atlantic - Old has no zones at all; Caracas, Asuncion, Greenland, Casablanca,
 *    Windhoek, Damascus and Krasnoyarsk changed their offsets after the list was written).
 */
function selectTimeZones() {
  const standardEntries = windowsZones.filter((entry) => !entry.isdst);
  const kept = windowsZones.filter((entry) => {
    const isDaylightTwin = entry.isdst && standardEntries.some((standard) => isSubset(entry.utc, standard.utc));
    const { hours } = parseZoneText(entry.text);
    const usesStatedOffset = entry.utc
      .filter(isKnownZone)
      .some((zone) => zoneOffsetHours(zone, WINTER_DAY) === hours || zoneOffsetHours(zone, SUMMER_DAY) === hours);
    return !isDaylightTwin && usesStatedOffset;
  });
  if (kept.length !== TIME_ZONE_COUNT) {
    throw new Error(`Expected ${TIME_ZONE_COUNT} time zones, got ${kept.length}; revisit the selection rules.`);
  }
  // A stable sort keeps the source order among entries with the same stated offset.
  return kept.toSorted((a, b) => parseZoneText(a.text).hours - parseZoneText(b.text).hours);
}

/** CLDR's short place name of a zone ("Москва", "Германия"), without Ukrainian's "час: " lead-in or a region suffix. */
function zonePlaceName(zone, locale) {
  return zoneNamePart(zone, locale, 'shortGeneric')
    .replace(/^час: /, '')
    .split(', ')[0];
}

/**
 * A translated label: the English label's offset prefix plus CLDR place names of the entry's zones — first the
 * zones the English label names, then the rest, Antarctic stations last; Etc/ zones have no place name, so the
 * entry holding Etc/GMT is named after UTC itself.
 */
function translatedZoneLabel(entry, locale) {
  const { prefix, places } = parseZoneText(entry.text);
  if (entry.utc.includes('Etc/GMT')) return `${prefix} ${UTC_NAMES[locale]}`;
  const cityOf = (zone) => zone.split('/').pop().replaceAll('_', ' ');
  const rank = (zone) => (places.includes(cityOf(zone)) ? 0 : zone.startsWith('Antarctica/') ? 2 : 1);
  const placeZones = entry.utc
    .filter((zone) => isKnownZone(zone) && !zone.startsWith('Etc/'))
    .toSorted((a, b) => rank(a) - rank(b));
  const names = [...new Set(placeZones.map((zone) => zonePlaceName(zone, locale)))].slice(0, MAX_LABEL_PLACES);
  // An Etc/-only entry (International Date Line West) gets ICU's own name, e.g. "GMT-12:00".
  const label = names.length > 0 ? names.join(', ') : zoneNamePart(entry.utc[0], locale, 'long');
  return `${prefix} ${label}`;
}

function buildTimeZones() {
  return selectTimeZones().map((entry, index) => ({
    id: String(index + 1).padStart(3, '0'),
    value: entry.value,
    code: entry.abbr,
    offset: entry.offset,
    isdst: entry.isdst,
    en: entry.text,
    ru: translatedZoneLabel(entry, 'ru'),
    uk: translatedZoneLabel(entry, 'uk'),
    utc: entry.utc,
  }));
}

/** CLDR writes ru/uk language names in lower case for running text; a picker shows them capitalised. */
function capitalise(name, locale) {
  return name.charAt(0).toLocaleUpperCase(locale) + name.slice(1);
}

function displayName(names, code) {
  const name = names.of(code);
  if (!name) throw new Error(`ICU has no name for ${code}`);
  return name;
}

function buildLanguages() {
  const [ruNames, ukNames] = TRANSLATED_LOCALES.map(
    (locale) => new Intl.DisplayNames(locale, { type: 'language', fallback: 'none' }),
  );
  return ISO6391.getAllCodes()
    .toSorted()
    .map((alpha2) => ({
      alpha2,
      en: ISO6391.getName(alpha2),
      ru: capitalise(displayName(ruNames, alpha2), 'ru'),
      uk: capitalise(displayName(ukNames, alpha2), 'uk'),
    }));
}

/** The flag emoji is the code's two letters as Unicode regional indicator symbols. */
function flagEmoji(code) {
  return String.fromCodePoint(...[...code].map((letter) => 0x1f1e6 + letter.charCodeAt(0) - 'A'.charCodeAt(0)));
}

/**
 * ISO 3166-1 codes plus XK (Kosovo) from i18n-iso-countries; territories without a telephone numbering plan of
 * their own in libphonenumber (Antarctica, Bouvet Island, Pitcairn and a few others) are left out, since every entry
 * needs a dial code. Names are CLDR's common ones ("Россия", not "Российская Федерация").
 */
function buildCountries() {
  const [enNames, ruNames, ukNames] = ['en', ...TRANSLATED_LOCALES].map(
    (locale) => new Intl.DisplayNames(locale, { type: 'region', fallback: 'none' }),
  );
  return Object.keys(countries.getAlpha2Codes())
    .filter((code) => isSupportedCountry(code))
    .toSorted()
    .map((code) => ({
      code,
      name_en: displayName(enNames, code),
      name_ru: displayName(ruNames, code),
      name_uk: displayName(ukNames, code),
      dial_code: `+${getCountryCallingCode(code)}`,
      flag: flagEmoji(code),
    }));
}

function writeModule(fileName, constName, typeName, entries) {
  const path = resolve(OUTPUT_DIR, fileName);
  const source = [
    '// Generated by scripts/generate-reference.mjs; edit that script and rerun it instead of this file.',
    `import type { ${typeName} } from './types.js';`,
    '',
    `export const ${constName}: ${typeName}[] = ${JSON.stringify(entries, null, 2)};`,
    '',
  ].join('\n');
  writeFileSync(path, source);
}

writeModule('time-zones.ts', 'TIME_ZONES', 'TimeZoneEntry', buildTimeZones());
writeModule('languages.ts', 'LANGUAGE_ENTRIES', 'LanguageEntry', buildLanguages());
writeModule('countries.ts', 'COUNTRIES', 'CountryEntry', buildCountries());
