/**
 * Herald's own words in a message's status detail. The ledger keeps them in English (what the API stored stays
 * searchable and stable); the log, the history and the API show them in the reader's language. A provider's own words
 * (an SMTP reply, an SMPP status) are shown as they came.
 */
import type { Language } from './constants.js';
import { errorText } from './error-messages.js';
import { ERRORS_EN, type ErrorKey } from './errors.js';

type DetailKey = Extract<ErrorKey, `details.${string}`>;

/** The English text the engine writes for a detail key, with its parameters. */
export function detail(key: DetailKey, params: Record<string, string | number> = {}): string {
  return errorText(key, 'en', params);
}

const FIXED = new Map<string, DetailKey>(
  (Object.keys(ERRORS_EN) as ErrorKey[])
    .filter((key): key is DetailKey => key.startsWith('details.') && !ERRORS_EN[key].includes('{'))
    .map((key) => [ERRORS_EN[key], key]),
);
const UNOPENED = /^not opened within (\d+) h after the campaign finished$/;
const FALLBACK = /^(.*); (EMAIL|SMS) fallback: (.*)$/s;

/** A stored detail in `language`: Herald's own words translated, anything else unchanged. */
export function detailText(stored: string | null, language: Language): string | null {
  if (stored === null || language === 'en') return stored;
  const fixed = FIXED.get(stored);
  if (fixed) return errorText(fixed, language);
  const unopened = UNOPENED.exec(stored);
  if (unopened) return errorText('details.unopened', language, { hours: unopened[1]! });
  const fallback = FALLBACK.exec(stored);
  if (fallback) {
    const [, own = '', channel = '', reason = ''] = fallback;
    return errorText('details.fallbackFailed', language, {
      own: detailText(own, language) ?? own,
      channel,
      reason: detailText(reason, language) ?? reason,
    });
  }
  return stored;
}
