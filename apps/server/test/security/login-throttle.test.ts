/** Password guessing is throttled per address and IP, and per address across IPs, since a caller picks its X-Forwarded-For. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const login = (username: string, password: string, ip: string) =>
  t.app.inject({ method: 'POST', url: '/api/login', headers: { 'x-forwarded-for': ip }, payload: { username, password } });

describe('log-in throttling', () => {
  it('stops guesses against one address from one IP after 10 failures', async () => {
    const user = await signUp(t.app);
    for (let i = 0; i < 10; i++) expect((await login(user.email, `Wrong${i}Pass`, '203.0.113.1')).statusCode).toBe(401);
    const blocked = await login(user.email, user.password, '203.0.113.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ statusCode: 429, key: 'login.tooManyAttempts' });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('stops guesses against one address spread over many IPs after 50 failures', { timeout: 120_000 }, async () => {
    const user = await signUp(t.app);
    const bystander = await signUp(t.app);
    for (let i = 0; i < 50; i++) {
      const res = await login(` ${user.email.toUpperCase()} `, `Guess${i}Pass`, `198.51.100.${i + 1}`);
      expect(res.statusCode, `guess ${i}`).toBe(401);
    }
    for (const ip of ['198.51.100.200', '192.0.2.7']) {
      const blocked = await login(user.email, user.password, ip);
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect((await login(bystander.email, bystander.password, '198.51.100.201')).statusCode).toBe(200);
  });

  it('takes about as long to refuse an unknown address as a wrong password', async () => {
    const user = await signUp(t.app);
    const timed = async (username: string, ip: string) => {
      const started = performance.now();
      expect((await login(username, 'Whatever1', ip)).statusCode).toBe(401);
      return performance.now() - started;
    };
    const unknown: number[] = [];
    const wrong: number[] = [];
    for (let i = 0; i < 7; i++) {
      unknown.push(await timed(`nobody-${i}-${Date.now()}@example.com`, `203.0.113.${100 + i}`));
      wrong.push(await timed(user.email, `203.0.113.${120 + i}`));
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[3]!;
    // Without the decoy check an unknown address answers some fifty times faster (no scrypt at all).
    expect(median(unknown)).toBeGreaterThan(median(wrong) / 4);
  });

  it('answers an unknown address exactly like a wrong password', async () => {
    const user = await signUp(t.app);
    const unknown = await login(`nobody-${Date.now()}@example.com`, 'Whatever1', '203.0.113.50');
    const wrong = await login(user.email, 'Whatever1', '203.0.113.50');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.body).toBe(wrong.body);
  });
});
