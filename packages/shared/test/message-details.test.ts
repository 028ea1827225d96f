import { describe, expect, it } from 'vitest';
import { detail, detailText } from '../src/message-details.js';

describe('message details', () => {
  it("shows Herald's own words in the reader's language and a provider's as they came", () => {
    expect(detail('details.dayLimit')).toBe('day limit reached');
    expect(detailText('day limit reached', 'ru')).toBe('исчерпан дневной лимит');
    expect(detailText('day limit reached', 'en')).toBe('day limit reached');
    expect(detailText(detail('details.unopened', { hours: 72 }), 'uk')).toBe(
      'не відкрито протягом 72 год після завершення розсилки',
    );
    const fallback = detail('details.fallbackFailed', {
      own: '550 5.1.1 No such user',
      channel: 'SMS',
      reason: detail('details.noConfigServes'),
    });
    expect(detailText(fallback, 'ru')).toBe(
      '550 5.1.1 No such user; резервный канал SMS: ни одна активная конфигурация не обслуживает этого получателя',
    );
    expect(detailText('submit_sm_resp ESME_RINVDSTADR (0x0B)', 'uk')).toBe('submit_sm_resp ESME_RINVDSTADR (0x0B)');
    expect(detailText(detail('details.smsTooLong', { parts: 25, max: 20 }), 'ru')).toBe(
      'SMS слишком длинное: частей — 25, можно не больше 20',
    );
    expect(detailText(null, 'ru')).toBeNull();
  });
});
