import { describe, expect, it } from 'vitest';
import { COUNTRIES, findTimeZone, LANGUAGE_ENTRIES, TIME_ZONES } from '../src/reference/index.js';

describe('time zones', () => {
  it('has 96 entries with unique ids 001 to 096', () => {
    const expectedIds = Array.from({ length: 96 }, (_, index) => String(index + 1).padStart(3, '0'));
    expect(TIME_ZONES.map((zone) => zone.id)).toEqual(expectedIds);
  });

  it('labels every zone in en, ru and uk and lists at least one IANA name', () => {
    for (const zone of TIME_ZONES) {
      expect(zone.en, zone.id).toMatch(/^\(UTC[^)]*\) \S/);
      expect(zone.ru, zone.id).toMatch(/^\(UTC[^)]*\) \S/);
      expect(zone.uk, zone.id).toMatch(/^\(UTC[^)]*\) \S/);
      expect(zone.utc.length, zone.id).toBeGreaterThan(0);
    }
  });

  it('finds a zone by id and nothing for an unknown id', () => {
    expect(findTimeZone('001')?.utc).toContain('Etc/GMT+12');
    expect(findTimeZone('097')).toBeUndefined();
  });
});

describe('languages', () => {
  it('has at least 180 ISO-639-1 languages with unique codes and three names', () => {
    expect(LANGUAGE_ENTRIES.length).toBeGreaterThanOrEqual(180);
    expect(new Set(LANGUAGE_ENTRIES.map((language) => language.alpha2)).size).toBe(LANGUAGE_ENTRIES.length);
    for (const language of LANGUAGE_ENTRIES) {
      expect(language.alpha2).toMatch(/^[a-z]{2}$/);
      expect(language.en && language.ru && language.uk, language.alpha2).toBeTruthy();
    }
    expect(LANGUAGE_ENTRIES.find((language) => language.alpha2 === 'ru')?.ru).toBe('Русский');
  });
});

describe('countries', () => {
  it('has at least 240 countries with unique codes, Kosovo as XK among them', () => {
    expect(COUNTRIES.length).toBeGreaterThanOrEqual(240);
    expect(new Set(COUNTRIES.map((country) => country.code)).size).toBe(COUNTRIES.length);
    expect(COUNTRIES.find((country) => country.code === 'XK')?.name_en).toBe('Kosovo');
  });

  it('gives every country a dial code with a plus sign', () => {
    for (const country of COUNTRIES) expect(country.dial_code, country.code).toMatch(/^\+\d+$/);
  });

  it('gives Russia its flag and Russian name', () => {
    const russia = COUNTRIES.find((country) => country.code === 'RU');
    expect(russia).toMatchObject({ flag: '🇷🇺', name_ru: 'Россия', dial_code: '+7' });
  });
});
