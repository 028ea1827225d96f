/**
 * Interface settings from the settings panel (spec sections 2 and 4): kept in localStorage,
 * with the size also in a cookie as the spec asks; the language cookie belongs to src/i18n.
 */
import { DEFAULT_THEME_COLOR } from '@herald/shared';
import Cookies from 'js-cookie';
import { useSyncExternalStore } from 'react';

export type InterfaceSize = 'small' | 'middle' | 'large';

export interface InterfaceSettings {
  themeColor: string;
  tagsView: boolean;
  fixedHeader: boolean;
  sidebarLogo: boolean;
  size: InterfaceSize;
}

const STORAGE_KEY = 'herald.settings';
const SIZE_COOKIE = 'size';
const SIZES: readonly InterfaceSize[] = ['small', 'middle', 'large'];

const DEFAULT_SETTINGS: InterfaceSettings = {
  themeColor: DEFAULT_THEME_COLOR,
  tagsView: true,
  fixedHeader: true,
  sidebarLogo: true,
  size: 'middle',
};

function isSize(value: unknown): value is InterfaceSize {
  return typeof value === 'string' && (SIZES as readonly string[]).includes(value);
}

function readStored(): Partial<InterfaceSettings> {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    return parsed && typeof parsed === 'object' ? (parsed as Partial<InterfaceSettings>) : {};
  } catch {
    return {};
  }
}

/** Keeps only well-typed values so a hand-edited or older entry cannot break the theme. */
function load(): InterfaceSettings {
  const stored = readStored();
  const cookieSize = Cookies.get(SIZE_COOKIE);
  return {
    themeColor:
      typeof stored.themeColor === 'string' && /^#[0-9a-f]{6}$/i.test(stored.themeColor)
        ? stored.themeColor
        : DEFAULT_SETTINGS.themeColor,
    tagsView: typeof stored.tagsView === 'boolean' ? stored.tagsView : DEFAULT_SETTINGS.tagsView,
    fixedHeader: typeof stored.fixedHeader === 'boolean' ? stored.fixedHeader : DEFAULT_SETTINGS.fixedHeader,
    sidebarLogo: typeof stored.sidebarLogo === 'boolean' ? stored.sidebarLogo : DEFAULT_SETTINGS.sidebarLogo,
    size: isSize(cookieSize) ? cookieSize : isSize(stored.size) ? stored.size : DEFAULT_SETTINGS.size,
  };
}

let current = load();
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function getSettings(): InterfaceSettings {
  return current;
}

export function updateSettings(patch: Partial<InterfaceSettings>): void {
  current = { ...current, ...patch };
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(current));
  } catch {
    // Private browsing may refuse storage; the settings still apply for this visit.
  }
  Cookies.set(SIZE_COOKIE, current.size, { expires: 365, sameSite: 'lax' });
  for (const listener of listeners) listener();
}

export function resetSettings(): void {
  updateSettings(DEFAULT_SETTINGS);
}

export function useSettings(): InterfaceSettings {
  return useSyncExternalStore(subscribe, getSettings);
}
