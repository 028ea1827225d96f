import { describe, expect, it } from 'vitest';
import { suggestCountry } from '../../src/contacts/country.js';

describe("a list's suggested phone country", () => {
  it('comes from a zone of one country, or from the language among several', () => {
    // Moscow, St. Petersburg, Volgograd, Minsk: Russia and Belarus, and Russian points at Russia first.
    expect(suggestCountry('053', 'ru')).toBe('RU');
    // Helsinki, Kyiv, Riga…: Ukrainian points at Ukraine, English at none of them.
    expect(suggestCountry('044', 'uk')).toBe('UA');
    expect(suggestCountry('044', 'en')).toBeNull();
  });

  it('is none for UTC and the other offset-only entries, whatever the language', () => {
    for (const language of ['en', 'ru', 'uk', null]) {
      expect(suggestCountry('030', language)).toBeNull();
      expect(suggestCountry('092', language)).toBeNull();
    }
  });
});
