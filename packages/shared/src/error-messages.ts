/** Every language's texts of the message keys, for the server; the console loads one language at a time instead. */
import type { Language } from './constants.js';
import { ERRORS_EN, type ErrorKey } from './errors.js';
import { ERRORS_RU } from './errors-ru.js';
import { ERRORS_UK } from './errors-uk.js';

export const ERROR_MESSAGES: Record<Language, Record<ErrorKey, string>> = { en: ERRORS_EN, ru: ERRORS_RU, uk: ERRORS_UK };

/** The text of a message key in a language, with {name} placeholders filled in. */
export function errorText(key: ErrorKey, language: Language, params: Record<string, string | number> = {}): string {
  const template = ERROR_MESSAGES[language][key] ?? ERRORS_EN[key];
  return template.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? `{${name}}`));
}
