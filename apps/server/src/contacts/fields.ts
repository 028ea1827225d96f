/** The rules every contact field obeys, whether it is typed in the console or read from a file. */
import { CONTACT_STATUSES, type ContactStatus, isEmail } from '@herald/shared';
import { LANGUAGE_ENTRIES } from '@herald/shared/reference';
import { type CountryCode, isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** What a normaliser answers for a value that breaks its rule; empty input answers null instead. */
export const INVALID = Symbol('invalid');
export type Invalid = typeof INVALID;

export const MAX_NAME_LENGTH = 200;
export const MAX_ATTRIBUTE_LENGTH = 1000;
export const MAX_ATTRIBUTES = 50;
/** Attribute names become template variables, so they stay plain words. */
export const ATTRIBUTE_NAME = /^[\p{L}\p{N}_-]{1,64}$/u;

export interface Phone {
  e164: string;
  country: string | null;
}

/** Characters no deliverable address holds; a wrong separator leaves them in a cell. */
const NOT_IN_ADDRESSES = /[,;:"<>()[\]\\]/;

export function normaliseEmail(raw: string): string | null | Invalid {
  const value = raw.trim().toLowerCase();
  if (!value) return null;
  return isEmail(value) && !NOT_IN_ADDRESSES.test(value) ? value : INVALID;
}

export function validPhone(text: string, defaultCountry: CountryCode | undefined): Phone | null {
  const parsed = parsePhoneNumberFromString(text, defaultCountry);
  return parsed?.isValid() ? { e164: parsed.number, country: parsed.country ?? null } : null;
}

/**
 * E.164 with its country. National numbers are read in the list's country; a number written without its
 * plus (as spreadsheets keep them) is tried as international before it is refused.
 */
export function normalisePhone(raw: string, defaultCountry: string | null): Phone | null | Invalid {
  const value = raw.trim();
  if (!value) return null;
  // libphonenumber itself ignores a default country it does not know.
  const phone = validPhone(value, (defaultCountry ?? undefined) as CountryCode | undefined);
  if (phone) return phone;
  if (value.startsWith('+')) return INVALID;
  const digits = value.replace(/\D/g, '').replace(/^00/, '');
  return (digits.length >= 8 && validPhone(`+${digits}`, undefined)) || INVALID;
}

const LANGUAGE_BY_NAME = new Map<string, string>(
  LANGUAGE_ENTRIES.flatMap((entry) =>
    [entry.alpha2, entry.en, entry.ru, entry.uk].map((name) => [name.toLowerCase(), entry.alpha2] as const),
  ),
);

/** An ISO 639-1 code, also recognised by its English, Russian or Ukrainian name. */
export function normaliseLanguage(raw: string): string | null | Invalid {
  const value = raw.trim().toLowerCase();
  if (!value) return null;
  return LANGUAGE_BY_NAME.get(value) ?? INVALID;
}

const KNOWN_TIME_ZONES = new Map<string, string>();

/** An IANA zone name in its canonical spelling. */
export function normaliseTimeZone(raw: string): string | null | Invalid {
  const value = raw.trim();
  if (!value) return null;
  const known = KNOWN_TIME_ZONES.get(value);
  if (known) return known;
  try {
    const canonical = new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
    // Only valid names are remembered, so a file of junk cannot grow the map.
    KNOWN_TIME_ZONES.set(value, canonical);
    return canonical;
  } catch {
    return INVALID;
  }
}

export function normaliseStatus(raw: string): ContactStatus | null | Invalid {
  const value = raw.trim().toLowerCase();
  if (!value) return null;
  return (CONTACT_STATUSES as readonly string[]).includes(value) ? (value as ContactStatus) : INVALID;
}

export function isCountryCode(value: string): boolean {
  return /^[A-Z]{2}$/.test(value) && isSupportedCountry(value);
}

/** Text as search compares it: lower case by Unicode's rules, the same for the stored name and the term. */
export function foldForSearch(value: string): string {
  return value.toLowerCase();
}

/**
 * Spreadsheets run cells starting with these as formulas; exports prefix them with an apostrophe. Cells that are
 * already apostrophes before such a character get one more, so the import can undo exactly one.
 */
const NEEDS_APOSTROPHE = /^'*[=+\-@\t\r]/;
const ESCAPED = /^'+[=+\-@\t\r]/;

export function escapeFormula(value: string): string {
  return NEEDS_APOSTROPHE.test(value) ? `'${value}` : value;
}

/** Undoes escapeFormula, so a file Herald exported imports back unchanged. */
export function unescapeFormula(value: string): string {
  return ESCAPED.test(value) ? value.slice(1) : value;
}
