/** Which language a request's messages are written in. */
import { LANGUAGES, type Language } from '@herald/shared';

/** The first of ru/en/uk the Accept-Language header names, else English. */
/** The caller's first supported language by the header's ranking, or null when it names none (or is absent). */
export function headerLanguage(header: string | undefined): Language | null {
  if (!header) return null;
  const ranked = header
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.find((p) => p.trim().startsWith('q='));
      return { code: tag.trim().slice(0, 2).toLowerCase(), q: q ? Number(q.trim().slice(2)) : 1 };
    })
    .sort((a, b) => b.q - a.q);
  const found = ranked.find((entry) => (LANGUAGES as readonly string[]).includes(entry.code));
  return (found?.code as Language | undefined) ?? null;
}

export function languageFromHeader(header: string | undefined): Language {
  return headerLanguage(header) ?? 'en';
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}
