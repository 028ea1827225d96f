/**
 * Property-based checks of the public sending API's input handling: any body (arbitrary JSON, near-valid messages
 * with hostile values, batches) answers 202 or a clean 4xx with the error shape, never an internal error, and a
 * message accepted for another account's template, group or config never exists.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { type Account, createRecords, newAccount, type OwnedRecords } from './fixtures.js';

let t: TestApp;
let owner: Account;
let ownerRecords: OwnedRecords;
let strangerRecords: OwnedRecords;
/** A key whose rate limit the fuzzing stays under, so every answer is about the input. */
let fuzzKey: string;

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  owner = await newAccount(t);
  const stranger = await newAccount(t);
  ownerRecords = await createRecords(t, owner, 'a');
  strangerRecords = await createRecords(t, stranger, 'b');
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/data/api-keys',
    headers: { 'x-token': ownerRecords.apiToken },
    payload: { name: 'Fuzzing', scope: 'send', rateLimit: 10_000 },
  });
  expect(created.statusCode, created.body).toBe(200);
  fuzzKey = created.json().key;
}, 60_000);
afterAll(async () => t.close());

const hostile = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom(
    '{{ constructor.constructor }}',
    '{% include "x" %}',
    '<script>alert(1)</script>',
    "' or 1=1 --",
    '\u0000',
    '__proto__',
    'a'.repeat(400),
    '+380501234567',
    'reader@example.com',
    'not an address',
    '2026-13-45T99:99:99Z',
    '9999-12-31T23:59:59Z',
  ),
);

const options = { noNullPrototype: true } as const;
const variables = fc.dictionary(
  fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('constructor', 'toString', 'name')),
  fc.jsonValue({ maxDepth: 2 }),
  { maxKeys: 4, ...options },
);

/** Messages the API accepts: own content of either channel, or the account's own template with any variables. */
const validMessage = fc.oneof(
  fc.record(
    {
      channel: fc.constant('email'),
      to: fc.constant('reader@example.com'),
      content: fc.record({ subject: hostile, html: hostile, text: hostile }, { requiredKeys: ['text'], ...options }),
    },
    options,
  ),
  fc.record(
    { channel: fc.constant('sms'), to: fc.constant('+380501234567'), content: fc.record({ text: hostile }, options) },
    options,
  ),
  fc.record(
    { channel: fc.constant('email'), to: fc.constant('reader@example.com'), template: fc.constant('welcome-a'), variables },
    options,
  ),
);

/** A valid message with at most two of its fields replaced by hostile values. */
const nearValidMessage = fc
  .tuple(
    validMessage,
    fc.dictionary(
      fc.constantFrom('channel', 'to', 'template', 'content', 'variables', 'groupId', 'configId', 'sendAt', 'locale'),
      fc.oneof(hostile, fc.integer({ min: -5, max: 2 ** 31 }), fc.jsonValue({ maxDepth: 2 })),
      { maxKeys: 2, ...options },
    ),
  )
  .map(([message, overrides]) => ({ ...message, ...overrides }));

async function send(url: string, payload: unknown, key = fuzzKey) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });
}

function expectCleanAnswer(res: { statusCode: number; body: string; json(): unknown }) {
  expect(res.statusCode, res.body.slice(0, 300)).not.toBeGreaterThanOrEqual(500);
  expect(res.statusCode, 'the rate limit is not what is tested here').not.toBe(429);
  if (res.statusCode >= 400) {
    expect(res.json()).toMatchObject({ statusCode: res.statusCode, key: expect.any(String), message: expect.any(String) });
  } else {
    expect(res.statusCode).toBe(202);
  }
}

describe('the sending API under arbitrary input', () => {
  it('answers any JSON body with 202 or a clean refusal', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof({ arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 1 }, { arbitrary: nearValidMessage, weight: 3 }),
        async (body) => {
          expectCleanAnswer(await send('/api/v1/messages', body));
        },
      ),
      { numRuns: 300 },
    );
  }, 300_000);

  it('answers any batch with 202 for all or a clean refusal for all', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(nearValidMessage, { minLength: 0, maxLength: 5 }), async (messages) => {
        const before = await t.database.db
          .selectFrom('messages')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        const res = await send('/api/v1/messages/batch', { messages });
        expectCleanAnswer(res);
        const after = await t.database.db
          .selectFrom('messages')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        expect(Number(after.n) - Number(before.n)).toBe(res.statusCode === 202 ? messages.length : 0);
      }),
      { numRuns: 150 },
    );
  }, 300_000);

  it('schedules a campaign at any number or refuses it on the field, never an internal error', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.double(), fc.integer(), fc.constantFrom(1e300, 9.3e18, -1, 8.64e15, 8.64e15 + 1)),
        async (scheduledAt) => {
          const draft = await t.app.inject({
            method: 'POST',
            url: `/api/data/campaigns/${ownerRecords.draftCampaignId}/duplicate`,
            headers: { 'x-token': owner.token },
          });
          expect(draft.statusCode, draft.body).toBe(200);
          const res = await t.app.inject({
            method: 'POST',
            url: `/api/data/campaigns/${draft.json().id}/start`,
            headers: { 'x-token': owner.token },
            payload: { scheduledAt },
          });
          expect([200, 400], `${scheduledAt}: ${res.body.slice(0, 200)}`).toContain(res.statusCode);
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);

  it('refuses NUL, which PostgreSQL text cannot hold, on the field of any request', async () => {
    const message = await send('/api/v1/messages', {
      channel: 'email',
      to: 'reader@example.com',
      content: { text: 'x' },
      locale: 'a\u0000',
    });
    expect(message.statusCode).toBe(400);
    expect(message.json().fields).toEqual([expect.objectContaining({ field: 'locale', key: 'validation.invalidValue' })]);
    const contact = await t.app.inject({
      method: 'POST',
      url: `/api/data/contact-lists/${ownerRecords.listId}/contacts`,
      headers: { 'x-token': owner.token },
      payload: { email: 'nul@example.com', name: 'a\u0000b' },
    });
    expect(contact.statusCode).toBe(400);
    expect(new Set(contact.json().fields.map((f: { field: string }) => f.field))).toEqual(new Set(['name']));
    const search = await t.app.inject({
      method: 'GET',
      url: `/api/data/contact-lists/${ownerRecords.listId}/contacts?search=%00`,
      headers: { 'x-token': owner.token },
    });
    expect(search.statusCode).toBe(400);
  });

  it("never accepts a message naming another account's template, group or config", async () => {
    const foreign = strangerRecords;
    for (const body of [
      { channel: 'email', to: 'reader@example.com', template: foreign.templateName },
      { channel: 'email', to: 'reader@example.com', content: { text: 'x' }, groupId: foreign.groupId },
      { channel: 'email', to: 'reader@example.com', content: { text: 'x' }, configId: foreign.configId },
      { channel: 'email', to: 'reader@example.com', content: { text: 'x' }, configId: foreign.sandboxEmailConfigId },
    ]) {
      const res = await send('/api/v1/messages', body);
      expect(res.statusCode, `${JSON.stringify(body)} → ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    }
  });
});
