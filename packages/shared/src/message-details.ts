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
const FALLBACK = /^(.*); (EMAIL|SMS) fallback: (.*)$/s;

/** Details with parameters, read back by a pattern made from their English text: each {name} matches its value. */
const WITH_PARAMS = (Object.keys(ERRORS_EN) as ErrorKey[])
  .filter(
    (key): key is DetailKey => key.startsWith('details.') && key !== 'details.fallbackFailed' && ERRORS_EN[key].includes('{'),
  )
  .map((key) => {
    const names: string[] = [];
    const source = ERRORS_EN[key]
      .split(/\{(\w+)\}/)
      .map((piece, index) => {
        if (index % 2 === 0) return piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(piece);
        return '(.+?)';
      })
      .join('');
    return { key, names, pattern: new RegExp(`^${source}$`) };
  });

/** A stored detail in `language`: Herald's own words translated, anything else unchanged. */
export function detailText(stored: string | null, language: Language): string | null {
  if (stored === null || language === 'en') return stored;
  const fixed = FIXED.get(stored);
  if (fixed) return errorText(fixed, language);
  const fallback = FALLBACK.exec(stored);
  if (fallback) {
    const [, own = '', channel = '', reason = ''] = fallback;
    return errorText('details.fallbackFailed', language, {
      own: detailText(own, language) ?? own,
      channel,
      reason: detailText(reason, language) ?? reason,
    });
  }
  for (const { key, names, pattern } of WITH_PARAMS) {
    const match = pattern.exec(stored);
    if (match) return errorText(key, language, Object.fromEntries(names.map((name, index) => [name, match[index + 1]!])));
  }
  return stored;
}
