/**
 * The SDK against a running Herald: the real server (buildApp with its workers) listening on a loopback port over
 * a real database (SQLite, or PostgreSQL with HERALD_TEST_DB=postgres), e-mail through an SMTP sink, SMS through
 * the sandbox provider, status webhooks to a loopback receiver checked with verifyWebhook.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../apps/server/src/app.js';
import type { DatabaseHandle } from '../../../apps/server/src/db/database.js';
import { migrateToLatest } from '../../../apps/server/src/db/migrate.js';
import { openTestDatabase, signUp, testConfig } from '../../../apps/server/test/helpers/app.js';
import { type SmtpSink, startSmtpSink } from '../../../apps/server/test/helpers/smtp-sink.js';
import { HeraldClient, HeraldError, type MessageStatusEvent, verifyWebhook } from '../src/index.js';

interface ReceivedCall {
  raw: Buffer;
  headers: IncomingHttpHeaders;
}

let app: FastifyInstance;
let database: DatabaseHandle;
let dropDatabase: () => Promise<void>;
let dataDir: string;
let baseUrl: string;
let sink: SmtpSink;
let receiver: Server;
const received: ReceivedCall[] = [];

let session: Record<string, string>;
let sendKey: string;
let readKey: string;
let smtpConfigId: number;
let webhookSecret: string;
let accountId: number;
const templateName = `welcome-${Date.now()}`;

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function consoleCall<T>(method: string, url: string, payload?: unknown): Promise<T> {
  const response = await fetch(`${baseUrl}${url}`, {
    method,
    headers: { ...session, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
    body: payload === undefined ? null : JSON.stringify(payload),
  });
  const body = (await response.json()) as T;
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function messageCount(): Promise<number> {
  const row = await database.db
    .selectFrom('messages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const mailTo = (address: string) => sink.messages.filter((mail) => mail.rcptTo.some((rcpt) => rcpt.address === address));
const client = (options: Partial<ConstructorParameters<typeof HeraldClient>[0]> = {}) =>
  new HeraldClient({ baseUrl, apiKey: sendKey, ...options });
let recipients = 0;
const recipient = () => `client-${Date.now()}-${++recipients}@example.com`;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'herald-sdk-live-'));
  const opened = await openTestDatabase();
  database = opened.database;
  dropDatabase = opened.drop;
  await migrateToLatest(database);
  // seed: every new account gets the sandbox providers, which carry the SMS here.
  app = await buildApp({ config: testConfig(dataDir, { seed: true }), database, runWorkers: true });
  await app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  sink = await startSmtpSink();
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ raw: Buffer.concat(chunks), headers: request.headers });
      response.writeHead(204).end();
    });
  });
  const receiverPort = await listen(receiver);

  const user = await signUp(app, { role: 'api' });
  session = { 'x-token': user.token };
  const account = await database.db.selectFrom('accounts').select('id').where('email', '=', user.email).executeTakeFirstOrThrow();
  accountId = Number(account.id);
  sendKey = (await consoleCall<{ key: string }>('POST', '/api/data/api-keys', { name: 'SDK send', scope: 'send' })).key;
  readKey = (await consoleCall<{ key: string }>('POST', '/api/data/api-keys', { name: 'SDK read', scope: 'read' })).key;
  smtpConfigId = (
    await consoleCall<{ id: number }>('POST', '/api/data/provider-configurations', {
      name: 'Sink',
      type: 'smtp',
      settings: { host: '127.0.0.1', port: sink.port, security: 'none', senderEmail: 'shop@herald.test' },
    })
  ).id;
  await consoleCall('POST', '/api/data/templates', {
    name: templateName,
    channel: 'EMAIL',
    subject: 'Welcome, {{ contact.attributes.firstName }}',
    html: '<p>Your plan: {{ contact.attributes.plan }}</p>',
  });
  webhookSecret = (
    await consoleCall<{ secret: string }>('PUT', '/api/data/webhooks', {
      url: `http://127.0.0.1:${receiverPort}/hook`,
      enabled: true,
    })
  ).secret;
});

afterAll(async () => {
  await app?.close();
  await sink?.close();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  await database?.close();
  await dropDatabase?.();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('sending with the SDK', () => {
  it('sends by template: 202 at once, then delivered over SMTP, with its history and a verified webhook', async () => {
    const to = recipient();
    const answer = await client().messages.send({
      channel: 'email',
      to,
      template: templateName,
      variables: { firstName: 'Olena', plan: 'Pro' },
      configId: smtpConfigId,
      locale: 'en',
    });
    expect(answer).toMatchObject({ status: 'unsent', channel: 'email', to });
    expect(Number.isInteger(answer.id)).toBe(true);
    expect(new Date(answer.createdAt).toISOString()).toBe(answer.createdAt);

    const mail = await until('the e-mail in the sink', async () => mailTo(to)[0]);
    expect(mail.raw.toString('utf8')).toContain('Subject: Welcome, Olena');

    const reader = client({ apiKey: readKey });
    const message = await until('status sent', async () => {
      const current = await reader.messages.get(answer.id);
      return current.status === 'sent' ? current : undefined;
    });
    expect(message).toMatchObject({
      id: answer.id,
      to,
      template: templateName,
      configId: smtpConfigId,
      locale: 'en',
      attempts: 1,
    });
    expect(message.providerMessageId).toBeTruthy();
    expect(message.history.map((step) => step.status)).toEqual(['unsent', 'sent']);
    for (const step of message.history) expect(new Date(step.at).toISOString()).toBe(step.at);

    const call = await until('the signed webhook', async () =>
      received.find((item) => (JSON.parse(item.raw.toString('utf8')) as MessageStatusEvent).messageId === answer.id),
    );
    const signature = call.headers['x-herald-signature'] as string;
    expect(await verifyWebhook(webhookSecret, call.raw, signature, 300)).toBe(true);
    expect(await verifyWebhook(webhookSecret, call.raw.toString('utf8'), signature, 300)).toBe(true);
    expect(await verifyWebhook('whsec_not-the-secret', call.raw, signature, 300)).toBe(false);
    const tampered = Buffer.from(call.raw.toString('utf8').replace('"sent"', '"read"'));
    expect(await verifyWebhook(webhookSecret, tampered, signature, 300)).toBe(false);
    expect(JSON.parse(call.raw.toString('utf8'))).toMatchObject({
      type: 'message.status',
      messageId: answer.id,
      status: 'sent',
      previousStatus: 'unsent',
      channel: 'email',
      to,
    });
  });

  it('sends inline content by e-mail and SMS', async () => {
    const to = recipient();
    const email = await client().messages.send({
      channel: 'email',
      to,
      content: { subject: 'Your code', html: '<p>Code <b>4711</b></p>', text: 'Code 4711' },
      configId: smtpConfigId,
    });
    const sms = await client().messages.send({ channel: 'sms', to: '+12025550123', content: { text: 'Code 4711' } });
    expect(sms).toMatchObject({ channel: 'sms', to: '+12025550123', status: 'unsent' });

    const mail = await until('the inline e-mail', async () => mailTo(to)[0]);
    expect(mail.raw.toString('utf8')).toContain('Subject: Your code');
    const smsState = await until('the SMS leaving the queue', async () => {
      const current = await client().messages.get(sms.id);
      return ['sent', 'delivered'].includes(current.status) ? current : undefined;
    });
    expect(smsState.history[0]!.status).toBe('unsent');
    expect(smsState.configId).not.toBeNull();
    expect(email.id).not.toBe(sms.id);
  });

  it('sends a batch in request order, and refuses a batch with one bad item without storing any', async () => {
    const addresses = [recipient(), recipient(), recipient()];
    const { messages } = await client().messages.sendBatch(
      addresses.map((to, index) => ({
        channel: 'email',
        to,
        content: { subject: `Batch ${index}`, text: 'Hi' },
        configId: smtpConfigId,
      })),
    );
    expect(messages.map((message) => message.to)).toEqual(addresses);
    expect(new Set(messages.map((message) => message.id)).size).toBe(3);
    await until('all three e-mails', async () => (addresses.every((to) => mailTo(to).length === 1) ? true : undefined));

    const before = await messageCount();
    const error = await client()
      .messages.sendBatch([
        { channel: 'email', to: recipient(), content: { subject: 'ok', text: 'ok' } },
        { channel: 'email', to: 'not-an-address', content: { subject: 'bad', text: 'bad' } },
      ])
      .catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(HeraldError);
    expect(error).toMatchObject({ status: 422, fields: [{ field: 'messages.1.to', key: 'messages.invalidEmail' }] });
    expect(await messageCount()).toBe(before);
  });
});

describe('errors', () => {
  it('names the field of an unknown template, and reports bad keys, a read-only key and another account’s id', async () => {
    const unknown = await client()
      .messages.send({ channel: 'email', to: recipient(), template: 'no-such-template' })
      .catch((failure: unknown) => failure);
    expect(unknown).toBeInstanceOf(HeraldError);
    expect(unknown).toMatchObject({ status: 422, fields: [{ field: 'template', key: 'messages.unknownTemplate' }] });
    expect((unknown as HeraldError).message).toContain('no-such-template');
    const inRussian = await client({ language: 'ru' })
      .messages.send({ channel: 'email', to: recipient(), template: 'no-such-template' })
      .catch((failure: unknown) => failure);
    expect((inRussian as HeraldError).message).toBe('Шаблона с именем no-such-template нет.');

    const badKey = await client({ apiKey: 'hk_not-a-real-key' })
      .messages.get(1)
      .catch((failure: unknown) => failure);
    expect(badKey).toMatchObject({ status: 401, key: 'apiKey.invalid' });

    const readOnly = await client({ apiKey: readKey })
      .messages.send({ channel: 'email', to: recipient(), content: { subject: 's', text: 't' } })
      .catch((failure: unknown) => failure);
    expect(readOnly).toMatchObject({ status: 403, key: 'apiKey.scope' });

    const other = await signUp(app, { role: 'api' });
    const otherKey = await fetch(`${baseUrl}/api/data/api-keys`, {
      method: 'POST',
      headers: { 'x-token': other.token, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'other', scope: 'send' }),
    }).then(async (response) => ((await response.json()) as { key: string }).key);
    const theirs = await client({ apiKey: otherKey }).messages.send({
      channel: 'sms',
      to: '+12025550124',
      content: { text: 'x' },
    });
    const notMine = await client()
      .messages.get(theirs.id)
      .catch((failure: unknown) => failure);
    expect(notMine).toMatchObject({ status: 404 });
  });

  it('answers the first answer again for a repeated Idempotency-Key, and 422 for the same key with another body', async () => {
    const key = `order-${Date.now()}`;
    const to = recipient();
    const message = { channel: 'email' as const, to, content: { subject: 'Receipt', text: 'Thanks' }, configId: smtpConfigId };
    const first = await client().messages.send(message, { idempotencyKey: key });
    const again = await client().messages.send(message, { idempotencyKey: key });
    expect(again).toEqual(first);
    const changed = await client()
      .messages.send({ ...message, content: { subject: 'Receipt', text: 'Changed' } }, { idempotencyKey: key })
      .catch((failure: unknown) => failure);
    expect(changed).toMatchObject({ status: 422, key: 'idempotency.mismatch' });
    await until('the receipt', async () => mailTo(to)[0]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(mailTo(to)).toHaveLength(1);
  });
});

describe('retries against the real server', () => {
  /**
   * A loopback proxy in front of Herald. For the first POST it forwards the request, lets Herald store the message,
   * then cuts the client's connection instead of passing the 202 on: the answer is lost, as on a flaky network.
   * The next POST gets a 503 from the proxy itself; everything after goes through.
   */
  async function flakyProxy(): Promise<{
    url: string;
    attempts: { key: string | undefined; outcome: string }[];
    close(): Promise<void>;
  }> {
    const target = new URL(baseUrl);
    const attempts: { key: string | undefined; outcome: string }[] = [];
    let posts = 0;
    const proxy = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const key = request.headers['idempotency-key'] as string | undefined;
        const post = request.method === 'POST' ? ++posts : 0;
        if (post === 2) {
          attempts.push({ key, outcome: '503' });
          response.writeHead(503, { 'content-type': 'application/json' }).end('{"message":"proxy: upstream busy"}');
          return;
        }
        const upstream = httpRequest(
          { host: target.hostname, port: target.port, path: request.url, method: request.method, headers: request.headers },
          (answer) => {
            const body: Buffer[] = [];
            answer.on('data', (chunk: Buffer) => body.push(chunk));
            answer.on('end', () => {
              if (post === 1) {
                attempts.push({ key, outcome: `dropped ${answer.statusCode}` });
                request.socket.destroy();
                return;
              }
              attempts.push({ key, outcome: String(answer.statusCode) });
              response.writeHead(answer.statusCode ?? 502, answer.headers).end(Buffer.concat(body));
            });
          },
        );
        upstream.end(Buffer.concat(chunks));
      });
    });
    const port = await listen(proxy);
    return {
      url: `http://127.0.0.1:${port}`,
      attempts,
      close: () => new Promise<void>((resolve) => proxy.close(() => resolve())),
    };
  }

  it('retries a lost answer and a 503 with one Idempotency-Key: one message stored, one e-mail sent', async () => {
    const proxy = await flakyProxy();
    try {
      const to = recipient();
      const before = await messageCount();
      const herald = new HeraldClient({ baseUrl: proxy.url, apiKey: sendKey, retry: { baseDelayMs: 50, maxDelayMs: 1_000 } });
      const answer = await herald.messages.send({
        channel: 'email',
        to,
        content: { subject: 'Once', text: 'Only once' },
        configId: smtpConfigId,
      });
      expect(proxy.attempts.map((attempt) => attempt.outcome)).toEqual(['dropped 202', '503', '202']);
      expect(new Set(proxy.attempts.map((attempt) => attempt.key)).size).toBe(1);
      expect(await messageCount()).toBe(before + 1);
      const stored = await client().messages.get(answer.id);
      expect(stored.to).toBe(to);
      await until('the e-mail', async () => mailTo(to)[0]);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(mailTo(to)).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });

  it('waits out 429s as Retry-After says, so every call of a rate-limited key succeeds', async () => {
    const slowKey = (
      await consoleCall<{ key: string }>('POST', '/api/data/api-keys', { name: 'slow', scope: 'read', rateLimit: 1 })
    ).key;
    const statuses: number[] = [];
    const counting: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      statuses.push(response.status);
      return response;
    };
    const herald = new HeraldClient({ baseUrl, apiKey: slowKey, fetch: counting, retry: { retries: 6, maxDelayMs: 5_000 } });
    const { id } = await client().messages.send({ channel: 'sms', to: '+12025550125', content: { text: 'limit' } });
    const started = Date.now();
    const answers = await Promise.all([1, 2, 3].map(() => herald.messages.get(id)));
    expect(answers.every((answer) => answer.id === id)).toBe(true);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(2);
    // One request a second: the third answer cannot come before two windows have passed.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
  });
});
