/** Hours become the account's local days in SQL, across daylight-saving switches and half-hour zones. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../src/messages/ledger.js';
import { dateOfDay, dayNumber, dayWindow, offsetMinutes, type Zone } from '../../src/stats/days.js';
import { countsByDay } from '../../src/stats/queries.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

function wallDate(zone: string, epochMs: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(epochMs);
}

describe('local days', () => {
  it('reads zone offsets, daylight saving included', () => {
    const kyiv: Zone = { name: 'Europe/Kyiv', fallbackMinutes: 120 };
    expect(offsetMinutes(kyiv, Date.UTC(2026, 0, 15))).toBe(120);
    expect(offsetMinutes(kyiv, Date.UTC(2026, 6, 15))).toBe(180);
    expect(offsetMinutes({ name: null, fallbackMinutes: -210 }, Date.now())).toBe(-210);
  });

  for (const [zoneName, accountId, first, last] of [
    ['Europe/Kyiv', 9001, '2026-03-27', '2026-03-31'],
    ['America/New_York', 9002, '2026-10-30', '2026-11-03'],
    ['Asia/Kolkata', 9003, '2026-05-01', '2026-05-03'],
  ] as const) {
    it(`counts every hour in the local day its start falls in (${zoneName})`, async () => {
      const zone: Zone = { name: zoneName, fallbackMinutes: 0 };
      const window = dayWindow(zone, dayNumber(first), dayNumber(last));
      const expected: Record<string, number> = {};
      const rows = [];
      for (let hour = window.fromHour; hour < window.toHour; hour++) {
        const date = wallDate(zoneName, hour * HOUR_MS);
        expected[date] = (expected[date] ?? 0) + 1;
        rows.push({
          account_id: accountId,
          hour,
          channel: 'EMAIL',
          config_id: 0,
          campaign_id: 0,
          template_id: 0,
          status: 'sent',
          count: 1,
        });
      }
      await t.database.db.insertInto('message_rollup').values(rows).execute();
      const counted = await countsByDay(t.database.db, { accountId }, window);
      expect(Object.fromEntries(counted.map((row) => [dateOfDay(row.day), row.n]))).toEqual(expected);
      expect(Object.keys(expected).sort()).toEqual(
        Array.from({ length: dayNumber(last) - dayNumber(first) + 1 }, (_, i) => dateOfDay(dayNumber(first) + i)),
      );
    });
  }
});
