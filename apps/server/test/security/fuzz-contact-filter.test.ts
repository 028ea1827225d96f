/**
 * Property-based checks of the contact view's search and attribute filter: any query string answers a page or a
 * field error (never an internal error, never another list's contacts), and the contacts found are exactly those a
 * plain model of the filter picks, whatever LIKE wildcards, quotes, backslashes or JSON-path characters the terms hold.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, clientOf } from '../contacts/api.js';
import { createTestApp, signUp, TEST_DB, type TestApp } from '../helpers/app.js';

interface Contact {
  id: number;
  email: string | null;
  phone: string | null;
  name: string | null;
  status: string;
  attributes: Record<string, string>;
}

const PEOPLE = [
  { email: 'ann@example.com', name: 'Ann Lee', phone: '+380501234567', attributes: { city: 'Kyiv', plan: 'pro' } },
  { email: 'bob_smith@example.com', name: 'Bob 100% Smith', attributes: { city: 'Lviv', 'max-speed': '100%' } },
  { email: 'carol%x@example.org', name: 'Carol_Underscore', phone: '+4915112345678', attributes: { plan: 'free' } },
  { email: 'dave@example.net', name: 'Dave \\ Backslash', attributes: { note: 'a\\b', city: 'kyiv' } },
  { email: 'eve@example.com', name: "Eve O'Neil", status: 'unsubscribed', attributes: { quote: '"x"' } },
  { email: null, name: 'Фёдор Пётр', phone: '+380631112233', attributes: { город: 'Одеса', city: 'Odesa' } },
  { email: 'gil@example.com', name: 'GIL UPPER', status: 'bounced', attributes: {} },
  { email: 'hal@example.com', name: null, phone: '+380441234567', attributes: { a_b: 'underscored', a: 'plain' } },
  { email: 'ivy@example.com', name: 'Ivy [brackets] (parens)', attributes: { plan: '' } },
  { email: 'jo@example.com', name: 'Jo*Star?', status: 'blocked', attributes: { _: 'underscore', '-': 'dash' } },
];

let t: TestApp;
let client: Client;
let listId: number;
let contacts: Contact[];

beforeAll(async () => {
  t = await createTestApp();
  client = clientOf(t, (await signUp(t.app)).token);
  const stranger = clientOf(t, (await signUp(t.app)).token);
  listId = await client.createList('Filtered', 'UA');
  const otherList = await client.createList('Other', 'UA');
  const strangersList = await stranger.createList('Strangers', 'UA');
  for (const person of PEOPLE) {
    const res = await client.post(`/api/data/contact-lists/${listId}/contacts`, person);
    expect(res.statusCode, res.body).toBe(200);
    for (const [client_, list] of [
      [client, otherList],
      [stranger, strangersList],
    ] as const) {
      const copy = await client_.post(`/api/data/contact-lists/${list}/contacts`, person);
      expect(copy.statusCode, copy.body).toBe(200);
    }
  }
  contacts = (await client.get(`/api/data/contact-lists/${listId}/contacts?size=100`)).json().items;
  expect(contacts).toHaveLength(PEOPLE.length);
});
afterAll(async () => t.close());

/** SQLite's LIKE folds ASCII letters only; PostgreSQL's ILIKE folds every letter. */
const fold = (text: string) => (TEST_DB === 'postgres' ? text.toLowerCase() : text.replace(/[A-Z]/g, (c) => c.toLowerCase()));

interface Filter {
  search?: string;
  status?: string;
  attribute?: string;
  value?: string;
}

/** The filter as the contact view documents it, over the list in memory. */
function model(filter: Filter): number[] {
  const term = filter.search?.trim() ?? '';
  const digits = term.replace(/\D/g, '');
  const phoneTerm = /^[+\d\s().-]+$/.test(term) && digits.length >= 3;
  return contacts
    .filter((c) => {
      if (filter.status && c.status !== filter.status) return false;
      if (term) {
        const byEmail = c.email?.includes(term.toLowerCase()) ?? false;
        const byName = c.name !== null && fold(c.name).includes(fold(term));
        const byPhone = phoneTerm && (c.phone?.includes(digits) ?? false);
        if (!byEmail && !byName && !byPhone) return false;
      }
      if (filter.attribute) {
        const value = c.attributes[filter.attribute];
        if (value === undefined || (filter.value !== undefined && value !== filter.value)) return false;
      }
      return true;
    })
    .map((c) => c.id)
    .sort((a, b) => a - b);
}

function query(filter: Record<string, string | undefined>): string {
  const params = new URLSearchParams({ size: '100' });
  for (const [key, value] of Object.entries(filter)) if (value !== undefined) params.set(key, value);
  return `/api/data/contact-lists/${listId}/contacts?${params}`;
}

/** Pieces of the stored values and the characters LIKE, JSON paths and SQL treat specially. */
const piece = fc.oneof(
  fc
    .constantFrom(
      ...PEOPLE.flatMap((p) => [p.email, p.name, p.phone, ...Object.keys(p.attributes), ...Object.values(p.attributes)]).filter(
        (v): v is string => typeof v === 'string' && v.length > 0,
      ),
    )
    .chain((value) =>
      fc.tuple(fc.nat(value.length), fc.nat(value.length)).map(([a, b]) => value.slice(Math.min(a, b), Math.max(a, b))),
    ),
  fc.constantFrom('%', '_', '\\', "'", '"', '$', '.', '[', ']', '*', '?', ' ', '--', ';', '\\%', '%_%', "' or '1'='1", '$."a"'),
  fc.string({ maxLength: 4 }),
);
const term = fc.array(piece, { minLength: 1, maxLength: 3 }).map((parts) => parts.join(''));

describe('the contact view filter', () => {
  it('finds exactly the contacts the model picks', async () => {
    const attributeNames = [...new Set(PEOPLE.flatMap((p) => Object.keys(p.attributes))), 'missing', 'CITY'];
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            search: term,
            status: fc.constantFrom('active', 'unsubscribed', 'bounced', 'blocked'),
            attribute: fc.constantFrom(...attributeNames),
            value: fc.oneof(term, fc.constantFrom('Kyiv', 'pro', '', '100%', 'a\\b', '"x"', 'Одеса')),
          },
          { requiredKeys: [] },
        ),
        async (filter) => {
          const res = await client.get(query(filter));
          expect(res.statusCode, res.body).toBe(200);
          const found = (res.json().items as Contact[]).map((c) => c.id).sort((a, b) => a - b);
          expect(found).toEqual(model(filter));
          expect(res.json().total).toBe(found.length);
        },
      ),
      { numRuns: 400 },
    );
  }, 300_000);

  it('answers any query string with a page of this list or a field error, never an internal error', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          fc.constantFrom('search', 'status', 'attribute', 'value', 'page', 'size', 'filter', 'search[]'),
          fc.oneof(fc.string({ maxLength: 300 }), fc.string({ unit: 'binary', maxLength: 50 }), term),
          { noNullPrototype: true },
        ),
        async (filter) => {
          const res = await client.get(query(filter));
          expect([200, 400], res.body.slice(0, 300)).toContain(res.statusCode);
          if (res.statusCode === 400) {
            expect(res.json()).toMatchObject({ statusCode: 400, key: expect.any(String), message: expect.any(String) });
            return;
          }
          const ids = new Set(contacts.map((c) => c.id));
          for (const item of res.json().items as Contact[]) expect(ids.has(item.id)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  }, 300_000);

  it('applies the same filter to export and bulk actions', async () => {
    await fc.assert(
      fc.asyncProperty(term, async (search) => {
        const exported = await client.get(`/api/data/contact-lists/${listId}/export.csv?search=${encodeURIComponent(search)}`);
        expect(exported.statusCode, exported.body.slice(0, 300)).toBe(200);
        const expected = model({ search });
        const lines = exported.body
          .replace(/^\uFEFF/, '')
          .split('\r\n')
          .filter(Boolean);
        // A header line plus one per contact; names may hold quoted line breaks, so count the contacts' e-mails.
        const emails = contacts.filter((c) => expected.includes(c.id) && c.email).map((c) => c.email!);
        for (const email of emails) expect(exported.body).toContain(email);
        expect(lines.length).toBeGreaterThanOrEqual(1);
      }),
      { numRuns: 100 },
    );
    const unsubscribed = await client.post(`/api/data/contact-lists/${listId}/contacts/bulk`, {
      action: 'unsubscribe',
      filter: { search: '%' },
    });
    expect(unsubscribed.json()).toEqual({
      affected: model({ search: '%' }).filter((id) => contacts.find((c) => c.id === id)!.status === 'active').length,
    });
  }, 300_000);
});
