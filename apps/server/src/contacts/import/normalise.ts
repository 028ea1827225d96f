/** Column mapping (checked, suggested, compiled) and the turning of one file record into a staged contact row. */
import { type ErrorKey, isEmail } from '@herald/shared';
import type { FieldFailure } from '../../http/errors.js';
import {
  ATTRIBUTE_NAME,
  foldForSearch,
  INVALID,
  MAX_ATTRIBUTE_LENGTH,
  MAX_NAME_LENGTH,
  normaliseEmail,
  normaliseLanguage,
  normalisePhone,
  normaliseStatus,
  normaliseTimeZone,
  unescapeFormula,
} from '../fields.js';
import { fastPhone } from './phone.js';

export const CONTACT_FIELDS = ['email', 'phone', 'name', 'language', 'timeZone', 'status'] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];
/** What a column becomes: a contact field, an attribute of that name, or nothing. */
export type ColumnTarget = ContactField | 'skip' | `attribute:${string}`;
/** Column index (as a string, JSON keys being strings) → target; columns left out are skipped. */
export type Mapping = Record<string, ColumnTarget>;

const ATTRIBUTE_PREFIX = 'attribute:';

/** Header titles people give each field, lower-cased, in English, Russian and Ukrainian. */
const HEADER_SYNONYMS: Record<ContactField, string[]> = {
  email: [
    'email',
    'e-mail',
    'e mail',
    'mail',
    'email address',
    'e-mail address',
    'почта',
    'эл. почта',
    'электронная почта',
    'ел. пошта',
    'електронна пошта',
    'пошта',
  ],
  phone: [
    'phone',
    'phone number',
    'telephone',
    'tel',
    'mobile',
    'cell',
    'msisdn',
    'телефон',
    'тел',
    'номер телефона',
    'номер телефону',
    'мобильный',
    'мобільний',
  ],
  name: ['name', 'full name', 'fullname', 'contact', 'имя', 'фио', "ім'я", 'імʼя', 'піб'],
  language: ['language', 'lang', 'locale', 'язык', 'мова'],
  timeZone: ['time zone', 'timezone', 'time_zone', 'tz', 'часовой пояс', 'часовий пояс'],
  status: ['status', 'статус'],
};

const FIELD_BY_HEADER = new Map(
  Object.entries(HEADER_SYNONYMS).flatMap(([field, names]) => names.map((name) => [name, field as ContactField] as const)),
);

export function fieldOfHeader(title: string): ContactField | null {
  return FIELD_BY_HEADER.get(title.trim().toLowerCase()) ?? null;
}

/** A header title as an attribute name: spaces become underscores, anything else unusable is dropped. */
function attributeNameOf(title: string): string {
  return title
    .trim()
    .replace(/\s+/g, '_')
    .replace(/[^\p{L}\p{N}_-]/gu, '')
    .slice(0, 64);
}

function looksLikePhone(value: string): boolean {
  return /^\+?[\d\s().-]{7,20}$/.test(value.trim()) && value.replace(/\D/g, '').length >= 7;
}

export function looksLikeAddress(value: string): boolean {
  return isEmail(value.trim().toLowerCase()) || looksLikePhone(value);
}

/** The column whose sample values mostly pass the test, if any. */
function columnWhere(rows: string[][], columnCount: number, test: (value: string) => boolean, taken: Set<number>): number {
  for (let column = 0; column < columnCount; column++) {
    if (taken.has(column)) continue;
    const values = rows.map((row) => row[column]?.trim() ?? '').filter(Boolean);
    if (values.length > 0 && values.filter(test).length * 2 >= values.length) return column;
  }
  return -1;
}

/** Header titles name the fields they can; e-mail and phone columns are also recognised by their values. */
export function suggestMapping(header: string[] | null, rows: string[][], columnCount: number): Mapping {
  const mapping: Mapping = {};
  const used = new Set<string>();
  const taken = new Set<number>();
  const assign = (column: number, target: ColumnTarget) => {
    mapping[String(column)] = target;
    if (target !== 'skip') {
      used.add(target);
      taken.add(column);
    }
  };
  header?.forEach((title, column) => {
    const field = fieldOfHeader(title);
    if (field && !used.has(field)) assign(column, field);
  });
  for (const [field, test] of [
    ['email', (value: string) => isEmail(value.toLowerCase())],
    ['phone', looksLikePhone],
  ] as const) {
    if (used.has(field)) continue;
    const column = columnWhere(rows, columnCount, test, taken);
    if (column >= 0) assign(column, field);
  }
  for (let column = 0; column < columnCount; column++) {
    if (taken.has(column)) continue;
    const attribute = header ? attributeNameOf(header[column] ?? '') : '';
    const target: ColumnTarget =
      attribute && !used.has(`${ATTRIBUTE_PREFIX}${attribute}`) ? `${ATTRIBUTE_PREFIX}${attribute}` : 'skip';
    assign(column, target);
  }
  return mapping;
}

function isTarget(value: string): value is ColumnTarget {
  return value === 'skip' || (CONTACT_FIELDS as readonly string[]).includes(value) || value.startsWith(ATTRIBUTE_PREFIX);
}

/** Every way a mapping can be unusable, named by the column at fault. */
export function checkMapping(mapping: Record<string, string>, columnCount: number): FieldFailure[] {
  const failures: FieldFailure[] = [];
  const seen = new Set<string>();
  for (const [column, target] of Object.entries(mapping)) {
    const field = `mapping.${column}`;
    const index = Number(column);
    if (!Number.isInteger(index) || index < 0 || index >= columnCount || !isTarget(target)) {
      failures.push({ field, key: 'validation.invalidValue' });
    } else if (target.startsWith(ATTRIBUTE_PREFIX) && !ATTRIBUTE_NAME.test(target.slice(ATTRIBUTE_PREFIX.length))) {
      failures.push({ field, key: 'validation.invalidAttributeName' });
    } else if (target !== 'skip' && seen.has(target)) {
      failures.push({ field, key: 'import.mappingDuplicate' });
    }
    seen.add(target);
  }
  if (!seen.has('email') && !seen.has('phone')) failures.push({ field: 'mapping', key: 'import.mappingNoContact' });
  return failures;
}

export function attributeNamesOf(mapping: Mapping): string[] {
  return Object.values(mapping)
    .filter((target) => target.startsWith(ATTRIBUTE_PREFIX))
    .map((target) => target.slice(ATTRIBUTE_PREFIX.length));
}

/** A mapping as column positions, -1 where a field is not mapped: what the per-record work reads. */
export interface CompiledMapping {
  email: number;
  phone: number;
  name: number;
  language: number;
  timeZone: number;
  status: number;
  /** quotedName: the name as a JSON string, ready to open its member of the row's attributes object. */
  attributes: [name: string, quotedName: string, column: number][];
}

export function compileMapping(mapping: Mapping): CompiledMapping {
  const compiled: CompiledMapping = { email: -1, phone: -1, name: -1, language: -1, timeZone: -1, status: -1, attributes: [] };
  for (const [column, target] of Object.entries(mapping)) {
    if (target === 'skip') continue;
    if (target.startsWith(ATTRIBUTE_PREFIX)) {
      const name = target.slice(ATTRIBUTE_PREFIX.length);
      compiled.attributes.push([name, JSON.stringify(name), Number(column)]);
    } else compiled[target as ContactField] = Number(column);
  }
  return compiled;
}

/** The staging table's columns, in order: line, email, phone, country, name, language, time zone, status, attributes, folded name. */
export type StagedRow = [
  line: number,
  email: string | null,
  phone: string | null,
  country: string | null,
  name: string | null,
  language: string | null,
  timeZone: string | null,
  status: string | null,
  attributes: string | null,
  nameFolded: string | null,
];

export interface RowFailure {
  key: ErrorKey;
  params: Record<string, string | number>;
}

/** Values quoted back in a reason are cut, so one absurd cell cannot bloat the report. */
const QUOTED_VALUE_LENGTH = 80;

function failure(key: ErrorKey, value: string): RowFailure {
  return { key, params: { value: value.trim().slice(0, QUOTED_VALUE_LENGTH) } };
}

function cell(fields: string[], column: number): string {
  return column < 0 ? '' : unescapeFormula(fields[column]?.trim() ?? '');
}

export function normaliseRecord(
  fields: string[],
  line: number,
  mapping: CompiledMapping,
  defaultCountry: string | null,
): StagedRow | RowFailure {
  const emailText = cell(fields, mapping.email);
  const email = normaliseEmail(emailText);
  if (email === INVALID) return failure('import.row.invalidEmail', emailText);
  const phoneText = cell(fields, mapping.phone);
  const phone = fastPhone(phoneText, defaultCountry) ?? normalisePhone(phoneText, defaultCountry);
  if (phone === INVALID) return failure('import.row.invalidPhone', phoneText);
  if (email === null && phone === null) return { key: 'import.row.noContact', params: {} };

  const name = cell(fields, mapping.name);
  if (name.length > MAX_NAME_LENGTH) return { key: 'import.row.tooLong', params: { field: 'name', limit: MAX_NAME_LENGTH } };
  const languageText = cell(fields, mapping.language);
  const language = normaliseLanguage(languageText);
  if (language === INVALID) return failure('import.row.invalidLanguage', languageText);
  const timeZoneText = cell(fields, mapping.timeZone);
  const timeZone = normaliseTimeZone(timeZoneText);
  if (timeZone === INVALID) return failure('import.row.invalidTimeZone', timeZoneText);
  const statusText = cell(fields, mapping.status);
  const status = normaliseStatus(statusText);
  if (status === INVALID) return failure('import.row.invalidStatus', statusText);

  // The attributes' JSON object written directly: a million objects built only to be stringified kept the collector busy.
  let attributes: string | null = null;
  for (const [attribute, quotedName, column] of mapping.attributes) {
    const value = cell(fields, column);
    if (!value) continue;
    if (value.length > MAX_ATTRIBUTE_LENGTH)
      return { key: 'import.row.tooLong', params: { field: attribute, limit: MAX_ATTRIBUTE_LENGTH } };
    attributes = `${attributes === null ? '{' : `${attributes},`}${quotedName}:${JSON.stringify(value)}`;
  }
  return [
    line,
    email,
    phone?.e164 ?? null,
    phone?.country ?? null,
    name || null,
    language,
    timeZone,
    status,
    attributes && `${attributes}}`,
    name ? foldForSearch(name) : null,
  ];
}
