/**
 * Hours become the account's local days (daily rows corrected by the edge hours) across daylight-saving switches,
 * half-hour zones and offsets on either side of UTC; hours just outside the window must not count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../src/messages/ledger.js';
import { dateOfDay, dayNumber, dayWindow, offsetMinutes, rollupPlan, type Zone } from '../../src/stats/days.js';
import { countsByDay, windowCounts } from '../../src/stats/queries.js';
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
    ['America/St_Johns', 9004, '2026-03-06', '2026-03-10'],
    ['Pacific/Auckland', 9005, '2026-04-03', '2026-04-07'],
    ['Asia/Kathmandu', 9006, '2026-05-01', '2026-05-01'],
    ['UTC', 9007, '2026-05-01', '2026-05-04'],
  ] as const) {
    it(`counts every hour in the local day its start falls in (${zoneName})`, async () => {
      const zone: Zone = { name: zoneName, fallbackMinutes: 0 };
      const window = dayWindow(zone, dayNumber(first), dayNumber(last));
      const expected: Record<string, number> = {};
      const hourly = [];
      const daily = new Map<number, number>();
      // Two days either side of the window, each hour counted as many times as its number in its UTC day, plus one.
      for (let hour = window.fromHour - 48; hour < window.toHour + 48; hour++) {
        const count = (hour % 24) + 1;
        if (hour >= window.fromHour && hour < window.toHour) {
          const date = wallDate(zoneName, hour * HOUR_MS);
          expected[date] = (expected[date] ?? 0) + count;
        }
        const bucket = { account_id: accountId, channel: 'EMAIL', config_id: 0, campaign_id: 0, template_id: 0, status: 'sent' };
        hourly.push({ ...bucket, hour, count });
        daily.set(Math.floor(hour / 24), (daily.get(Math.floor(hour / 24)) ?? 0) + count);
      }
      await t.database.db.insertInto('message_rollup').values(hourly).execute();
      await t.database.db
        .insertInto('message_rollup_daily')
        .values(
          [...daily].map(([day, count]) => ({
            account_id: accountId,
            day,
            channel: 'EMAIL',
            config_id: 0,
            campaign_id: 0,
            template_id: 0,
            status: 'sent',
            count,
          })),
        )
        .execute();
      const counted = await countsByDay(t.database.db, { accountId }, window);
      expect(Object.fromEntries(counted.map((row) => [dateOfDay(row.day), row.n]))).toEqual(expected);
      expect(Object.keys(expected).sort()).toEqual(
        Array.from({ length: dayNumber(last) - dayNumber(first) + 1 }, (_, i) => dateOfDay(dayNumber(first) + i)),
      );
      // The whole window at once (config and campaign breakdowns) holds the same hours.
      const whole = await windowCounts(t.database.db, { accountId }, window);
      expect(whole.map((row) => row.n)).toEqual([Object.values(expected).reduce((sum, n) => sum + n, 0)]);
      // Edge hours only: none for UTC, and never more than half a UTC day's hours per day read.
      const plan = rollupPlan(window);
      if (zoneName === 'UTC') expect(plan.hours).toEqual([]);
      expect(plan.hours.length).toBeLessThanOrEqual(12 * (plan.days.length + 2));
    });
  }
});
