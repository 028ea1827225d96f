/**
 * How the client retries, against a loopback HTTP server that answers each attempt as the test says
 * (failures a real Herald cannot be made to give on demand: 503s, 429 with Retry-After, dropped connections).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HeraldClient, HeraldError } from '../src/index.js';
import { backoffDelay, type DEFAULT_RETRY, parseRetryAfter } from '../src/retry.js';

interface Attempt {
  at: number;
  method: string;
  url: string;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
  body: string;
}

type Answer = (request: IncomingMessage, response: ServerResponse) => void;

const attempts: Attempt[] = [];
let script: Answer[] = [];
let baseUrl: string;

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Answer =>
  (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  };
const dropConnection: Answer = (request) => request.socket.destroy();
/** The status line and part of the body arrive, then the connection is cut. */
const cutMidBody: Answer = (_request, response) => {
  response.writeHead(202, { 'content-type': 'application/json', 'content-length': '200' });
  response.write('{"id":1,');
  setTimeout(() => response.socket?.destroy(), 20);
};
const accepted = json(202, {
  id: 1,
  status: 'unsent',
  channel: 'email',
  to: 'a@example.com',
  createdAt: '2026-11-24T12:00:00.000Z',
});
const unavailable = json(503, { statusCode: 503, key: 'error.apiDown', message: 'Service unavailable', fields: [] });

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    attempts.push({
      at: Date.now(),
      method: request.method ?? '',
      url: request.url ?? '',
      idempotencyKey: request.headers['idempotency-key'] as string | undefined,
      authorization: request.headers.authorization,
      body: Buffer.concat(chunks).toString('utf8'),
    });
    const answer = script.shift() ?? json(500, { message: 'no scripted answer left' });
    answer(request, response);
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  attempts.length = 0;
  script = [];
});

const client = (retry: Partial<typeof DEFAULT_RETRY> = {}) =>
  new HeraldClient({ baseUrl, apiKey: 'hk_test', retry: { baseDelayMs: 20, maxDelayMs: 2_000, ...retry } });
const message = { channel: 'email' as const, to: 'a@example.com', content: { subject: 'Hi', text: 'Hello' } };

describe('retries', () => {
  it('retries a send after 503s and a dropped connection, with one Idempotency-Key for all attempts', async () => {
    script = [unavailable, dropConnection, unavailable, accepted];
    const answer = await client().messages.send(message);
    expect(answer).toMatchObject({ id: 1, status: 'unsent' });
    expect(attempts).toHaveLength(4);
    const keys = new Set(attempts.map((attempt) => attempt.idempotencyKey));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(attempts.every((attempt) => attempt.authorization === 'Bearer hk_test')).toBe(true);
    expect(attempts.every((attempt) => attempt.body === JSON.stringify(message))).toBe(true);
  });

  it('retries an answer cut off in the middle of its body, with the same key', async () => {
    script = [cutMidBody, accepted];
    expect(await client().messages.send(message)).toMatchObject({ id: 1 });
    expect(attempts).toHaveLength(2);
    expect(attempts[0]!.idempotencyKey).toBe(attempts[1]!.idempotencyKey);
  });

  it('makes a new key for each logical send and keeps a key the caller gives', async () => {
    script = [accepted, accepted, accepted];
    const herald = client();
    await herald.messages.send(message);
    await herald.messages.send(message);
    await herald.messages.send(message, { idempotencyKey: 'order-1234' });
    expect(attempts[0]!.idempotencyKey).not.toBe(attempts[1]!.idempotencyKey);
    expect(attempts[2]!.idempotencyKey).toBe('order-1234');
  });

  it('waits as long as Retry-After says on a 429', async () => {
    script = [
      json(429, { statusCode: 429, key: 'apiKey.rateLimited', message: 'Too many requests', fields: [] }, { 'retry-after': '1' }),
      accepted,
    ];
    await client({ baseDelayMs: 1 }).messages.send(message);
    expect(attempts).toHaveLength(2);
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('gives up at once when Retry-After is beyond the cap, with the wait in the error', async () => {
    script = [
      json(
        429,
        { statusCode: 429, key: 'apiKey.rateLimited', message: 'Too many requests', fields: [] },
        { 'retry-after': '120' },
      ),
    ];
    const error = await client({ maxDelayMs: 5_000 })
      .messages.send(message)
      .catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(HeraldError);
    expect(error).toMatchObject({ status: 429, key: 'apiKey.rateLimited', retryAfterSeconds: 120 });
    expect(attempts).toHaveLength(1);
  });

  it('stops after the configured number of retries and throws the last error', async () => {
    script = [unavailable, unavailable, unavailable, unavailable];
    const error = await client({ retries: 2 })
      .messages.send(message)
      .catch((failure: unknown) => failure);
    expect(error).toMatchObject({ status: 503, message: 'Service unavailable' });
    expect(attempts).toHaveLength(3);
  });

  it('does not retry a client error', async () => {
    script = [
      json(422, {
        statusCode: 422,
        key: 'message.templateUnknown',
        message: 'Unknown template',
        fields: [{ field: 'template', key: 'message.templateUnknown', message: 'Unknown template' }],
      }),
    ];
    const error = await client()
      .messages.send({ channel: 'email', to: 'a@example.com', template: 'nope' })
      .catch((failure: unknown) => failure);
    expect(error).toMatchObject({ status: 422, fields: [{ field: 'template' }] });
    expect(attempts).toHaveLength(1);
  });

  it('reports a network failure as status 0 once the retries are spent', async () => {
    script = [dropConnection, dropConnection];
    const error = await client({ retries: 1 })
      .messages.get(5)
      .catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(HeraldError);
    expect(error).toMatchObject({ status: 0 });
    expect(attempts.map((attempt) => `${attempt.method} ${attempt.url}`)).toEqual([
      'GET /api/v1/messages/5',
      'GET /api/v1/messages/5',
    ]);
  });

  it('never repeats a POST without an Idempotency-Key after a 5xx, but does after a 429', async () => {
    script = [unavailable];
    await expect(client().request('POST', '/data/anything', {})).rejects.toMatchObject({ status: 503 });
    expect(attempts).toHaveLength(1);
    attempts.length = 0;
    script = [json(429, { message: 'slow down' }, { 'retry-after': '0' }), json(200, { ok: true })];
    expect(await client().request('POST', '/data/anything', {})).toEqual({ ok: true });
    expect(attempts).toHaveLength(2);
  });

  it('does a single attempt with retry: false', async () => {
    script = [unavailable, accepted];
    const herald = new HeraldClient({ baseUrl, apiKey: 'hk_test', retry: false });
    await expect(herald.messages.send(message)).rejects.toMatchObject({ status: 503 });
    expect(attempts).toHaveLength(1);
  });

  it('stops waiting when the caller aborts', async () => {
    script = [json(503, { message: 'down' }, { 'retry-after': '1' }), accepted];
    const controller = new AbortController();
    const pending = client().messages.send(message, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('cancelled')), 200);
    await expect(pending).rejects.toThrow('cancelled');
    expect(attempts).toHaveLength(1);
  });
});

describe('backoff', () => {
  it('doubles up to the cap, with jitter in the upper half', () => {
    const options = { retries: 10, baseDelayMs: 100, maxDelayMs: 1_000 };
    expect([1, 2, 3, 4, 5].map((attempt) => backoffDelay(attempt, options, () => 1))).toEqual([100, 200, 400, 800, 1000]);
    expect([1, 2, 3, 4, 5].map((attempt) => backoffDelay(attempt, options, () => 0))).toEqual([50, 100, 200, 400, 500]);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.UTC(2026, 10, 24, 12, 0, 0);
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(new Date(now + 10_000).toUTCString(), now)).toBe(10_000);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});
