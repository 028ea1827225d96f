import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('/api/openapi.json', () => {
  it('describes every route and passes the recommended lint rules without errors', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const document = res.json();
    expect(document.openapi).toBe('3.1.0');

    const documented = new Set(
      Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, operations]) =>
        Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
      ),
    );
    for (const path of ['/api/v1/messages', '/api/v1/messages/batch', '/api/data/api-keys', '/api/data/webhooks'])
      expect(documented.has(`POST ${path}`) || documented.has(`PUT ${path}`)).toBe(true);
    expect(documented.has('GET /api/v1/messages/{id}')).toBe(true);

    const send = document.paths['/api/v1/messages'].post;
    expect(send.tags).toEqual(['messages']);
    expect(send.security).toEqual([{ apiKey: [] }]);
    expect(send.responses['202']).toBeDefined();
    expect(document.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });

    const problems = await lintFromString({
      source: res.body,
      absoluteRef: 'openapi.json',
      config: await createConfig({ extends: ['recommended'] }),
    });
    const errors = problems
      .filter((problem) => problem.severity === 'error')
      .map((problem) => `${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer ?? ''}`);
    expect(errors).toEqual([]);
  });
});
