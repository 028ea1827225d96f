import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

/** The policy as a map of directive → sources. */
function directives(header: string | string[] | number | undefined): Map<string, string[]> {
  expect(typeof header).toBe('string');
  const map = new Map<string, string[]>();
  for (const part of String(header).split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) map.set(name, sources);
  }
  return map;
}

describe('security headers over plain http', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ publicUrl: 'http://herald.test' });
  });
  afterAll(async () => t.close());

  it('sends a strict Content-Security-Policy, nosniff, no referrer and no framing on every answer', async () => {
    for (const request of [
      { method: 'GET' as const, url: '/api/health' },
      { method: 'GET' as const, url: '/api/data/users' },
      { method: 'GET' as const, url: '/api/no-such-route' },
      { method: 'GET' as const, url: '/api/v1/messages/1' },
      { method: 'POST' as const, url: '/api/login', payload: { username: 'x@example.com', password: 'Wrong1234' } },
    ]) {
      const res = await t.app.inject(request);
      const csp = directives(res.headers['content-security-policy']);
      expect(csp.get('default-src')).toEqual(["'self'"]);
      expect(csp.get('script-src')).toEqual(["'self'"]);
      expect(csp.get('script-src-attr')).toEqual(["'none'"]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(csp.get('base-uri')).toEqual(["'self'"]);
      expect(csp.get('form-action')).toEqual(["'self'"]);
      expect(csp.get('connect-src')).toEqual(["'self'"]);
      // Inline styles only: antd's runtime <style> elements and the inline styles of previewed e-mails.
      expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
      for (const sources of csp.values()) {
        expect(sources).not.toContain("'unsafe-eval'");
        expect(sources).not.toContain('*');
      }
      expect([...csp.entries()].filter(([, sources]) => sources.includes("'unsafe-inline'")).map(([name]) => name)).toEqual([
        'style-src',
      ]);
      expect(csp.has('upgrade-insecure-requests')).toBe(false);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(res.headers['strict-transport-security']).toBeUndefined();
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('lets mail clients of any origin load the tracking pixel', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/t/o/1/not-a-signature' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/gif');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('security headers behind an https address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ publicUrl: 'https://herald.example.com' });
  });
  afterAll(async () => t.close());

  it('adds HSTS and upgrades insecure requests', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
    expect(directives(res.headers['content-security-policy']).has('upgrade-insecure-requests')).toBe(true);
  });
});
