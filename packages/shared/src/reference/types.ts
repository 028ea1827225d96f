/** Reference data shapes of the spec's section 3. */
export interface TimeZoneEntry {
  /** Three-digit string, 001 to 096. */
  id: string;
  value: string;
  code: string;
  /** Hours from UTC, e.g. 3 or -3.5. */
  offset: number;
  isdst: boolean;
  en: string;
  ru: string;
  uk: string;
  utc: string[];
}

export interface LanguageEntry {
  alpha2: string;
  en: string;
  ru: string;
  uk: string;
}

export interface CountryEntry {
  code: string;
  name_en: string;
  name_ru: string;
  name_uk: string;
  dial_code: string;
  flag: string;
}
