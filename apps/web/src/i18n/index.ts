/**
 * react-i18next with ru, en and uk. Each area keeps its texts in `<area>/locales/<lang>.json`,
 * loaded as the namespace named after the area's folder; server message keys come from @herald/shared.
 * Texts are fetched per language and namespace: the shell's namespaces before the first render, a
 * section's (src/sections/<name>) when its screen first calls useTranslation('<name>'), which suspends until then.
 * antd's own texts (ConfigProvider locale) are fetched with the language, so both switch together.
 */
import { DEFAULT_LANGUAGE, ERRORS_EN, LANGUAGES, type Language } from '@herald/shared';
import type { Locale } from 'antd/es/locale';
import enUS from 'antd/es/locale/en_US';
import i18n, { type BackendModule } from 'i18next';
import Cookies from 'js-cookie';
import { initReactI18next } from 'react-i18next';

export const LANGUAGE_COOKIE = 'language';

type Texts = Record<string, unknown>;

// Not eager, so only the languages and namespaces in use are downloaded.
const files = import.meta.glob<Texts>('../**/locales/*.json', { import: 'default' });

/** Loaders by `<language>/<namespace>`. */
const loaders = new Map<string, () => Promise<Texts>>();
const shellNamespaces = new Set(['common', 'errors']);
for (const [file, load] of Object.entries(files)) {
  const match = /\/([^/]+)\/locales\/(\w+)\.json$/.exec(file);
  if (!match?.[1] || !match[2]) continue;
  loaders.set(`${match[2]}/${match[1]}`, load);
  if (!file.includes('/sections/')) shellNamespaces.add(match[1]);
}

/** Server message texts: English is in the shell (the fallback), the others are fetched with their language. */
const ERROR_TEXTS: Record<Language, () => Promise<Record<string, string>>> = {
  en: async () => ERRORS_EN,
  ru: () => import('@herald/shared/errors-ru').then((module) => module.ERRORS_RU),
  uk: () => import('@herald/shared/errors-uk').then((module) => module.ERRORS_UK),
};

const backend: BackendModule = {
  type: 'backend',
  callbackApi: true,
  init: () => undefined,
  read(language, namespace, callback) {
    if (namespace === 'errors') {
      if (!isLanguage(language)) {
        callback(null, {});
        return;
      }
      ERROR_TEXTS[language]().then(
        (texts) => callback(null, { ...texts }),
        (error: unknown) => callback(error instanceof Error ? error : String(error), false),
      );
      return;
    }
    // A namespace without a file in this language (e.g. the default 'common') is simply empty.
    const load = loaders.get(`${language}/${namespace}`);
    if (!load) {
      callback(null, {});
      return;
    }
    load().then(
      (texts) => callback(null, texts),
      (error: unknown) => callback(error instanceof Error ? error : String(error), false),
    );
  },
};

// en_US is antd's built-in default and in the bundle anyway; the others are fetched when chosen.
const ANTD_LOCALES: Record<Language, () => Promise<Locale>> = {
  en: async () => enUS,
  ru: () => import('antd/es/locale/ru_RU').then((module) => module.default),
  uk: () => import('antd/es/locale/uk_UA').then((module) => module.default),
};

const antdLocales = new Map<Language, Locale>();

async function loadAntdLocale(language: Language): Promise<void> {
  antdLocales.set(language, await ANTD_LOCALES[language]());
}

/** antd's locale for the current language, for the ConfigProvider. */
export function antdLocale(): Locale | undefined {
  return antdLocales.get(currentLanguage());
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

/** Switches only once every namespace in use is loaded in the new language, so no raw keys show in between. */
export async function changeLanguage(language: Language): Promise<void> {
  await Promise.all([i18n.loadLanguages(language), loadAntdLocale(language)]);
  Cookies.set(LANGUAGE_COOKIE, language, { expires: 365, sameSite: 'lax' });
  document.documentElement.lang = language;
  await i18n.changeLanguage(language);
}

const language = initialLanguage();
document.documentElement.lang = language;

/** Settles once the shell's texts (in the language and the fallback) and antd's are in; main.tsx mounts React after it. */
export const i18nReady = Promise.all([
  i18n
    .use(backend)
    .use(initReactI18next)
    .init({
      lng: language,
      fallbackLng: 'en',
      ns: [...shellNamespaces],
      defaultNS: 'common',
      interpolation: { escapeValue: false, prefix: '{', suffix: '}' },
      returnNull: false,
    }),
  loadAntdLocale(language),
]);

export default i18n;
