import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('reference lists', () => {
  it('serves the 96 time zones, the languages and the countries without a session', async () => {
    const zones = await t.app.inject({ method: 'GET', url: '/api/data/time-zones' });
    expect(zones.statusCode).toBe(200);
    expect(zones.json()).toHaveLength(96);
    expect(zones.json()[0]).toMatchObject({ id: '001', en: expect.any(String), ru: expect.any(String), uk: expect.any(String) });
    expect(zones.headers['cache-control']).toContain('max-age');

    const languages = (await t.app.inject({ method: 'GET', url: '/api/data/languages' })).json();
    expect(languages.length).toBeGreaterThanOrEqual(180);
    expect(languages).toContainEqual(expect.objectContaining({ alpha2: 'uk', en: 'Ukrainian' }));

    const countries = (await t.app.inject({ method: 'GET', url: '/api/data/countries' })).json();
    expect(countries.length).toBeGreaterThanOrEqual(240);
    expect(countries).toContainEqual(expect.objectContaining({ code: 'XK', dial_code: expect.stringMatching(/^\+/) }));
    expect(countries).toContainEqual(expect.objectContaining({ code: 'UA', dial_code: '+380', flag: '🇺🇦' }));
  });
});
