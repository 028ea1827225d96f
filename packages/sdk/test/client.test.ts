import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HeraldClient, HeraldError } from '../src/index.js';

let baseUrl: string;
const seen: { token?: string | string[] | undefined }[] = [];
const server = createServer((request, response) => {
  seen.push({ token: request.headers['x-token'] });
  response.setHeader('content-type', 'application/json');
  if (request.url === '/api/health') return response.end(JSON.stringify({ status: 'up' }));
  response.statusCode = 400;
  response.end(JSON.stringify({ statusCode: 400, key: 'validation.mandatory', message: 'Mandatory field missing.', fields: [] }));
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('HeraldClient', () => {
  it('sends the token and reads the answer', async () => {
    const client = new HeraldClient({ baseUrl, token: 'abc' });
    expect(await client.health()).toEqual({ status: 'up' });
    expect(seen.at(-1)?.token).toBe('abc');
  });

  it('turns an error body into a HeraldError with its key', async () => {
    const client = new HeraldClient({ baseUrl });
    const error = await client.request('POST', '/data/anything', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HeraldError);
    expect(error).toMatchObject({ status: 400, key: 'validation.mandatory', message: 'Mandatory field missing.' });
  });
});
