/**
 * Fast paths for the phone numbers of most files: E.164 (`+` and digits, also with spaces, dashes, dots or
 * brackets between them) and valid national numbers of the list's country. They take the same steps as
 * libphonenumber's parse and isValid over the same (max) metadata, with each pattern compiled once instead of on
 * every call. Whatever they are not sure of (a national prefix that could be stripped, a non-geographic or shared
 * calling code, an international prefix, an odd length) they leave to libphonenumber, so both agree on every number.
 */
import { Metadata } from 'libphonenumber-js/max';
import { INVALID, type Invalid, type Phone } from '../fields.js';

/** What the parts of libphonenumber's Metadata used here look like; its own typings show only the constructor. */
interface NumberType {
  pattern(): string;
  possibleLengths(): number[] | undefined;
}
interface NumberingPlan {
  callingCode(): string;
  IDDPrefix(): string | undefined;
  nationalNumberPattern(): string;
  nationalPrefixForParsing(): string | undefined;
  nationalPrefixTransformRule(): string | undefined;
  leadingDigits(): string | undefined;
  type(name: string): NumberType | undefined;
}
interface MetadataApi {
  selectNumberingPlan(countryOrCallingCode: string): MetadataApi;
  getCountryCodesForCallingCode(callingCode: string): string[] | undefined;
  hasCountry(country: string): boolean;
  numberingPlan: NumberingPlan;
}

/** libphonenumber's order: fixed line first, then these. */
const OTHER_TYPES = [
  'MOBILE',
  'PREMIUM_RATE',
  'TOLL_FREE',
  'SHARED_COST',
  'VOIP',
  'PERSONAL_NUMBER',
  'PAGER',
  'UAN',
  'VOICEMAIL',
];
/** libphonenumber's longest calling code, and the shortest and longest national significant number it parses. */
const MAX_CALLING_CODE_DIGITS = 3;
const MIN_NATIONAL_DIGITS = 2;
const MAX_NATIONAL_DIGITS = 17;
const E164_SHAPE = /^\+[1-9]\d{5,16}$/;
/** Digits with the punctuation people put between them; libphonenumber reads the same digits out of these. */
const FORMATTED_SHAPE = /^\+?\(?\d[\d\s().-]{0,40}$/;
const PUNCTUATION = /[\s().-]/g;

interface CompiledType {
  pattern: RegExp;
  lengths: number[] | undefined;
}

interface CompiledPlan {
  callingCode: string;
  /** Null where national numbers take a path this file does not follow (a transform rule, carrier codes). */
  nationalReading: { prefix: RegExp | null; idd: RegExp | null } | null;
  nationalNumber: RegExp;
  nationalPrefix: RegExp | null;
  leadingDigits: RegExp | null;
  types: CompiledType[];
}

const metadata = new Metadata() as unknown as MetadataApi;
const plans = new Map<string, CompiledPlan>();
const countriesByCallingCode = new Map<string, string[] | null>();

const entirely = (pattern: string) => new RegExp(`^(?:${pattern})$`);

function planOf(country: string): CompiledPlan {
  let plan = plans.get(country);
  if (!plan) {
    const numbering = metadata.selectNumberingPlan(country).numberingPlan;
    const prefix = numbering.nationalPrefixForParsing();
    const leading = numbering.leadingDigits();
    const types: CompiledType[] = [];
    for (const name of ['FIXED_LINE', ...OTHER_TYPES]) {
      const type = numbering.type(name);
      // A type without a pattern never matches, as in libphonenumber's isNumberTypeEqualTo.
      if (type?.pattern()) types.push({ pattern: entirely(type.pattern()), lengths: type.possibleLengths() });
    }
    const idd = numbering.IDDPrefix();
    const simplePrefix = !numbering.nationalPrefixTransformRule() && !/\((?!\?)/.test(prefix ?? '');
    plan = {
      callingCode: numbering.callingCode(),
      nationalReading: simplePrefix
        ? { prefix: prefix ? new RegExp(`^(?:${prefix})`) : null, idd: idd ? new RegExp(`^(?:${idd})`) : null }
        : null,
      nationalNumber: entirely(numbering.nationalNumberPattern()),
      nationalPrefix: prefix ? new RegExp(`^(?:${prefix})`) : null,
      leadingDigits: leading ? new RegExp(`^(?:${leading})`) : null,
      types,
    };
    plans.set(country, plan);
  }
  return plan;
}

function countriesOf(callingCode: string): string[] | null {
  let countries = countriesByCallingCode.get(callingCode);
  if (countries === undefined) {
    countries = metadata.getCountryCodesForCallingCode(callingCode) ?? null;
    countriesByCallingCode.set(callingCode, countries);
  }
  return countries;
}

/** libphonenumber's getNumberType answering anything at all. */
function hasNumberType(national: string, plan: CompiledPlan): boolean {
  if (!plan.nationalNumber.test(national)) return false;
  for (const type of plan.types) {
    if (type.lengths && !type.lengths.includes(national.length)) continue;
    if (type.pattern.test(national)) return true;
  }
  return false;
}

/** libphonenumber's getCountryByNationalNumber: the first country sharing the code that claims the number. */
function countryByNationalNumber(national: string, countries: string[]): string | undefined {
  for (const country of countries) {
    const plan = planOf(country);
    if (plan.leadingDigits) {
      if (plan.leadingDigits.test(national)) return country;
    } else if (hasNumberType(national, plan)) {
      return country;
    }
  }
  return undefined;
}

/**
 * The number as libphonenumber reads and judges it (valid: E.164 and country; invalid: INVALID), or undefined
 * when the value is not plain E.164 or holds a case this path leaves to libphonenumber.
 */
export function fastE164(value: string): Phone | Invalid | undefined {
  if (!E164_SHAPE.test(value)) return undefined;
  for (let length = 1; length <= MAX_CALLING_CODE_DIGITS; length++) {
    const countries = countriesOf(value.slice(1, 1 + length));
    if (!countries) continue;
    const national = value.slice(1 + length);
    if (national.length < MIN_NATIONAL_DIGITS || national.length > MAX_NATIONAL_DIGITS) return undefined;
    // Non-geographic entities, and numbers that could start with a national prefix, take libphonenumber's long way.
    if (countries.includes('001')) return undefined;
    const main = planOf(countries[0]!);
    if (main.nationalPrefix?.test(national)) return undefined;
    const country = countries.length === 1 ? countries[0] : countryByNationalNumber(national, countries);
    const valid = hasNumberType(national, country ? planOf(country) : main);
    return valid ? { e164: value, country: country ?? null } : INVALID;
  }
  return undefined;
}

/**
 * fastE164 for a number written with punctuation, and for a national number of the default country when the
 * country alone owns its calling code: such a number is valid as libphonenumber reads it when its digits, its
 * national prefix stripped if it has one, make a valid national number (invalid ones take the long way).
 */
export function fastPhone(value: string, defaultCountry: string | null): Phone | Invalid | undefined {
  if (!FORMATTED_SHAPE.test(value)) return undefined;
  const digits = value.replace(PUNCTUATION, '');
  if (digits.startsWith('+')) return fastE164(digits);
  if (!defaultCountry || !metadataKnows(defaultCountry)) return undefined;
  const plan = planOf(defaultCountry);
  const reading = plan.nationalReading;
  if (!reading || countriesOf(plan.callingCode)?.length !== 1) return undefined;
  // An international prefix, or the calling code written without its plus, make libphonenumber read it as international.
  if (reading.idd?.test(digits) || digits.startsWith(plan.callingCode)) return undefined;
  const stripped = reading.prefix?.exec(digits);
  const national = stripped ? digits.slice(stripped[0].length) : digits;
  if (national.length < MIN_NATIONAL_DIGITS || national.length > MAX_NATIONAL_DIGITS) return undefined;
  return hasNumberType(national, plan) ? { e164: `+${plan.callingCode}${national}`, country: defaultCountry } : undefined;
}

const knownCountries = new Map<string, boolean>();

function metadataKnows(country: string): boolean {
  let known = knownCountries.get(country);
  if (known === undefined) {
    known = metadata.hasCountry(country);
    knownCountries.set(country, known);
  }
  return known;
}
