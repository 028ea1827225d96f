/** Reads a translated array (a screen's list of capabilities) without trusting its shape. */
import type { TFunction } from 'i18next';

export function textList(t: TFunction, key: string, options: Record<string, unknown> = {}): string[] {
  const value: unknown = t(key, { ...options, returnObjects: true });
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
