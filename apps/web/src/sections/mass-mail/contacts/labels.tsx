/** Translated statuses, countries, languages, time zones, numbers and durations shared by the contact screens. */
import { CONTACT_STATUSES, type ContactStatus } from '@herald/shared';
import { LANGUAGE_ENTRIES, TIME_ZONES } from '@herald/shared/reference';
import { Tag, Tooltip } from 'antd';
import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { countryName, findCountry } from '../../configs/labels';

const STATUS_COLORS: Record<ContactStatus, string> = {
  active: 'green',
  unsubscribed: 'default',
  bounced: 'orange',
  blocked: 'red',
};

export function StatusTag({ status }: { status: ContactStatus }) {
  const { t } = useTranslation('contacts');
  return (
    <Tag color={STATUS_COLORS[status]} data-testid="contact-status" data-status={status} style={{ marginInlineEnd: 0 }}>
      {t(`status.${status}`)}
    </Tag>
  );
}

export function useStatusOptions() {
  const { t } = useTranslation('contacts');
  return CONTACT_STATUSES.map((status) => ({ value: status, label: t(`status.${status}`) }));
}

/** A flag with the country's name on hover; nothing for an unknown code. */
export function CountryFlag({ code }: { code: string | null }) {
  const { i18n } = useTranslation();
  const country = code ? findCountry(code) : undefined;
  if (!country) return null;
  return (
    <Tooltip title={countryName(country, i18n.language)}>
      <span role="img" aria-label={countryName(country, i18n.language)}>
        {country.flag}
      </span>
    </Tooltip>
  );
}

export function countryLabel(code: string, language: string): string {
  const country = findCountry(code);
  return country ? `${country.flag} ${countryName(country, language)}` : code;
}

function localName(entry: { en: string; ru: string; uk: string }, language: string): string {
  if (language === 'ru') return entry.ru;
  if (language === 'uk') return entry.uk;
  return entry.en;
}

const LANGUAGES_BY_CODE = new Map(LANGUAGE_ENTRIES.map((entry) => [entry.alpha2, entry]));

export function languageName(code: string, language: string): string {
  const entry = LANGUAGES_BY_CODE.get(code);
  return entry ? localName(entry, language) : code;
}

export function useLanguageOptions() {
  const { i18n } = useTranslation();
  return useMemo(
    () =>
      LANGUAGE_ENTRIES.map((entry) => ({
        value: entry.alpha2,
        label: `${localName(entry, i18n.language)} (${entry.alpha2})`,
        search: `${entry.en} ${entry.ru} ${entry.uk} ${entry.alpha2}`,
      })).sort((a, b) => a.label.localeCompare(b.label, i18n.language)),
    [i18n.language],
  );
}

interface ZoneOption {
  value: string;
  label: string;
  search: string;
}

/**
 * IANA zone names (what contacts store) grouped under the reference entry they belong to; a name listed under
 * several entries stays under the first. A stored name no entry lists is offered on its own, so it still shows.
 */
export function useTimeZoneOptions(current?: string | null) {
  const { i18n } = useTranslation();
  return useMemo(() => {
    const seen = new Set<string>();
    const groups: { label: string; title: string; options: ZoneOption[] }[] = [];
    for (const zone of TIME_ZONES) {
      const label = localName(zone, i18n.language);
      const options = zone.utc
        .filter((name) => !seen.has(name))
        .map((name) => {
          seen.add(name);
          return { value: name, label: name.replaceAll('_', ' '), search: `${name} ${label} ${zone.value}` };
        });
      if (options.length > 0) groups.push({ label, title: label, options });
    }
    const extra: ZoneOption[] = current && !seen.has(current) ? [{ value: current, label: current, search: current }] : [];
    return [...extra, ...groups];
  }, [i18n.language, current]);
}

export function formatNumber(value: number, language: string): string {
  return new Intl.NumberFormat(language).format(value);
}

/** "1 h 5 min", "2 min 30 s", "12 s": the two largest units are enough for a time left. */
export function formatDuration(t: TFunction, totalSeconds: number): string {
  // Rounded up, so work still under way never reads as 0 s.
  const seconds = Math.max(1, Math.ceil(totalSeconds));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  if (hours > 0)
    return [t('contacts:duration.hours', { n: hours }), minutes > 0 && t('contacts:duration.minutes', { n: minutes })]
      .filter(Boolean)
      .join(' ');
  if (minutes > 0)
    return [t('contacts:duration.minutes', { n: minutes }), rest > 0 && t('contacts:duration.seconds', { n: rest })]
      .filter(Boolean)
      .join(' ');
  return t('contacts:duration.seconds', { n: rest });
}

export function formatBytes(t: TFunction, bytes: number, language: string): string {
  if (bytes >= 1024 * 1024)
    return t('contacts:size.mb', { n: formatNumber(Math.round((bytes / 1024 / 1024) * 10) / 10, language) });
  if (bytes >= 1024) return t('contacts:size.kb', { n: formatNumber(Math.round(bytes / 1024), language) });
  return t('contacts:size.bytes', { n: formatNumber(bytes, language) });
}
