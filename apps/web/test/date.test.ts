import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatTime, timeAgo, toDayjs } from '../src/utils/date';
import en from '../src/utils/locales/en.json';
import ru from '../src/utils/locales/ru.json';

beforeAll(async () => {
  await i18next.init({
    lng: 'en',
    resources: { en: { utils: en }, ru: { utils: ru } },
    interpolation: { escapeValue: false, prefix: '{', suffix: '}' },
  });
});

const UTC = { utc: ['UTC'] };

describe('formatTime', () => {
  it('uses the zero-padded default pattern', () => {
    expect(formatTime(Date.UTC(2024, 0, 5, 3, 4, 5), undefined, UTC)).toBe('2024-01-05 03:04:05');
  });

  it('reads a 10-digit number as seconds and a 13-digit one as milliseconds', () => {
    expect(formatTime(1_700_000_000, undefined, UTC)).toBe('2023-11-14 22:13:20');
    expect(formatTime(1_700_000_000_000, undefined, UTC)).toBe('2023-11-14 22:13:20');
    expect(formatTime('1700000000', 'YYYY-MM-DD', UTC)).toBe('2023-11-14');
  });

  it("shows the time in the user's zone", () => {
    expect(formatTime(1_700_000_000, 'HH:mm', { utc: 'Europe/Kyiv' })).toBe('00:13');
    expect(formatTime(1_700_000_000, 'HH:mm', { utc: ['Not/AZone'], offset: 5.5 })).toBe('03:43');
  });

  it('returns an empty string for missing or unreadable values', () => {
    expect(formatTime(null)).toBe('');
    expect(formatTime(undefined)).toBe('');
    expect(formatTime('not a date')).toBe('');
    expect(toDayjs('')).toBeUndefined();
  });
});

describe('timeAgo', () => {
  const now = Date.UTC(2024, 5, 1, 12, 0, 0);

  it('says just now under a minute', () => {
    expect(timeAgo(now - 20_000, now)).toBe('just now');
  });

  it('counts minutes under an hour, hours under a day, then days', () => {
    expect(timeAgo(now - 60_000, now)).toBe('1 minute ago');
    expect(timeAgo(now - 59 * 60_000, now)).toBe('59 minutes ago');
    expect(timeAgo(now - 3 * 3_600_000, now)).toBe('3 hours ago');
    expect(timeAgo(now - 50 * 3_600_000, now)).toBe('2 days ago');
  });

  it('reads seconds and uses the language plural rules', async () => {
    await i18next.changeLanguage('ru');
    expect(timeAgo(Math.floor((now - 5 * 60_000) / 1000), now)).toBe('5 минут назад');
    expect(timeAgo(now - 22 * 3_600_000, now)).toBe('22 часа назад');
    await i18next.changeLanguage('en');
  });
});
