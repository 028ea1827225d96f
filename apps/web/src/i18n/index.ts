/**
 * react-i18next with ru, en and uk. Each area keeps its texts in `<area>/locales/<lang>.json`,
 * loaded as the namespace named after the area's folder; server message keys come from @herald/shared.
 */
import { DEFAULT_LANGUAGE, ERROR_MESSAGES, LANGUAGES, type Language } from '@herald/shared';
import i18n from 'i18next';
import Cookies from 'js-cookie';
import { initReactI18next } from 'react-i18next';

export const LANGUAGE_COOKIE = 'language';

const files = import.meta.glob<Record<string, unknown>>('../**/locales/*.json', { eager: true, import: 'default' });

function buildResources() {
  const resources: Record<string, Record<string, Record<string, unknown>>> = {};
  for (const language of LANGUAGES) resources[language] = { errors: { ...ERROR_MESSAGES[language] } };
  for (const [file, texts] of Object.entries(files)) {
    const match = /\/([^/]+)\/locales\/(\w+)\.json$/.exec(file);
    if (!match) continue;
    const [, namespace, language] = match as unknown as [string, string, string];
    if (!resources[language]) continue;
    resources[language][namespace] = texts;
  }
  return resources;
}

function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The spec's rule: the saved setting, else the browser's language if we have it, else ru. */
export function initialLanguage(): Language {
  const saved = Cookies.get(LANGUAGE_COOKIE);
  if (isLanguage(saved)) return saved;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const code = tag.slice(0, 2).toLowerCase();
    if (isLanguage(code)) return code;
  }
  return DEFAULT_LANGUAGE;
}

export function currentLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
}

export async function changeLanguage(language: Language): Promise<void> {
  Cookies.set(LANGUAGE_COOKIE, language, { expires: 365, sameSite: 'lax' });
  document.documentElement.lang = language;
  await i18n.changeLanguage(language);
}

void i18n.use(initReactI18next).init({
  resources: buildResources(),
  lng: initialLanguage(),
  fallbackLng: 'en',
  defaultNS: 'common',
  interpolation: { escapeValue: false, prefix: '{', suffix: '}' },
  returnNull: false,
});
document.documentElement.lang = i18n.language;

export default i18n;
