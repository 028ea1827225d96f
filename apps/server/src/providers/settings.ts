/** Checks a config's settings against its type's field schema and splits secrets from the rest. */

import { isEmail, isValidOperatorCodes, MAX_FILTER_ITEMS } from '@herald/shared';
import { COUNTRIES } from '@herald/shared/reference';
import type { ChannelDefinition, ChannelField } from '../channels/types.js';
import type { FieldFailure } from '../http/errors.js';

export type SettingValue = string | number | boolean;

export interface FilterItem {
  kind: 'country' | 'operator';
  value: string;
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

function checkField(field: ChannelField, raw: unknown): { value?: SettingValue; failure?: FieldFailure } {
  const fail = (key: FieldFailure['key'], params?: FieldFailure['params']) => ({
    failure: { field: field.name, key, ...(params ? { params } : {}) },
  });
  switch (field.kind) {
    case 'number': {
      const value = typeof raw === 'number' ? raw : Number(String(raw).trim());
      if (!Number.isFinite(value)) return fail('validation.invalidValue');
      if ((field.min !== undefined && value < field.min) || (field.max !== undefined && value > field.max)) {
        return fail('validation.outOfRange', { min: field.min ?? '−∞', max: field.max ?? '∞' });
      }
      return { value };
    }
    case 'boolean':
      return { value: raw === true || raw === 'true' || raw === 1 || raw === '1' };
    case 'select':
      return field.options?.includes(String(raw)) ? { value: String(raw) } : fail('validation.notInList');
    case 'email':
      return isEmail(String(raw).trim()) ? { value: String(raw).trim() } : fail('validation.invalidEmail');
    case 'url':
      return /^https?:\/\/[^\s]+$/i.test(String(raw).trim()) ? { value: String(raw).trim() } : fail('validation.invalidUrl');
    case 'json':
      try {
        JSON.parse(String(raw));
        return { value: String(raw) };
      } catch {
        return fail('validation.invalidValue');
      }
    default: {
      const value = typeof raw === 'string' ? raw : String(raw);
      return value.length > 20_000 ? fail('validation.invalidValue') : { value };
    }
  }
}

export interface CheckedSettings {
  settings: Record<string, SettingValue>;
  secrets: Record<string, string>;
  failures: FieldFailure[];
}

/**
 * A blank secret keeps the stored one (a PUT without a secret keeps it);
 * a blank optional field is dropped; a blank required one is "Mandatory field missing.".
 */
export function checkSettings(
  definition: ChannelDefinition,
  input: Record<string, unknown>,
  storedSecrets: Record<string, string> = {},
): CheckedSettings {
  const settings: Record<string, SettingValue> = {};
  const secrets: Record<string, string> = {};
  const failures: FieldFailure[] = [];
  for (const field of definition.fields) {
    const isSecret = field.secret === true || field.kind === 'secret';
    const raw = input[field.name];
    if (isBlank(raw)) {
      if (isSecret && storedSecrets[field.name]) secrets[field.name] = storedSecrets[field.name] as string;
      else if (field.default !== undefined && !isSecret) settings[field.name] = field.default;
      else if (field.required) failures.push({ field: field.name, key: 'validation.mandatory' });
      continue;
    }
    const { value, failure } = checkField(field, raw);
    if (failure) failures.push(failure);
    else if (isSecret) secrets[field.name] = String(value);
    else settings[field.name] = value as SettingValue;
  }
  return { settings, secrets, failures };
}

const COUNTRY_CODES = new Set(COUNTRIES.map((country) => country.code));

export function checkFilter(items: FilterItem[]): FieldFailure[] {
  if (items.length > MAX_FILTER_ITEMS)
    return [{ field: 'filter', key: 'validation.tooManyFilters', params: { n: MAX_FILTER_ITEMS } }];
  const failures: FieldFailure[] = [];
  items.forEach((item, index) => {
    const field = `filter.${index}.value`;
    if (item.kind === 'country' && !COUNTRY_CODES.has(item.value.toUpperCase()))
      failures.push({ field, key: 'validation.unknownCountry' });
    if (item.kind === 'operator' && !isValidOperatorCodes(item.value))
      failures.push({ field, key: 'validation.invalidOperatorCodes' });
  });
  return failures;
}

export function normaliseFilter(items: FilterItem[]): FilterItem[] {
  return items.map((item) =>
    item.kind === 'country'
      ? { kind: 'country', value: item.value.toUpperCase() }
      : { kind: 'operator', value: item.value.replace(/\s+/g, ' ').trim() },
  );
}
