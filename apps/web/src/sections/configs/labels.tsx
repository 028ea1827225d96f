/** Translated names of provider types, categories, field options and countries, shared by the configs screens. */
import { MailOutlined, MessageOutlined } from '@ant-design/icons';
import type { ChannelCategory } from '@herald/shared';
import { COUNTRIES, type CountryEntry } from '@herald/shared/reference';
import { Tag } from 'antd';
import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

export function typeLabel(t: TFunction, type: string): string {
  return t(`configs:types.${type}.name`, { defaultValue: type });
}

export function optionLabel(t: TFunction, field: string, option: string): string {
  return t(`configs:providers.option.${field}.${option}`, { defaultValue: option });
}

const BY_CODE = new Map(COUNTRIES.map((country) => [country.code, country]));

export function findCountry(code: string): CountryEntry | undefined {
  return BY_CODE.get(code.toUpperCase());
}

export function countryName(country: CountryEntry, language: string): string {
  if (language === 'ru') return country.name_ru;
  if (language === 'uk') return country.name_uk;
  return country.name_en;
}

/** Every country as a select option: flag and name in the interface language, searchable by any name, code or dial code. */
export function useCountryOptions() {
  const { i18n } = useTranslation();
  return useMemo(
    () =>
      COUNTRIES.map((country) => {
        const local = countryName(country, i18n.language);
        return {
          value: country.code,
          label: `${country.flag} ${local}`,
          search: `${local} ${country.name_en} ${country.code} ${country.dial_code}`,
        };
      }).sort((a, b) => a.search.localeCompare(b.search, i18n.language)),
    [i18n.language],
  );
}

export function CategoryIcon({ category }: { category: ChannelCategory }) {
  return category === 'EMAIL' ? <MailOutlined /> : <MessageOutlined />;
}

export function CategoryTag({ category }: { category: ChannelCategory }) {
  const { t } = useTranslation('configs');
  return (
    <Tag color={category === 'EMAIL' ? 'blue' : 'purple'} icon={<CategoryIcon category={category} />}>
      {t(`categories.${category}`)}
    </Tag>
  );
}
