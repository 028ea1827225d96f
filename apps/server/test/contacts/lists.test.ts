import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from '../helpers/app.js';
import { type Client, clientOf } from './api.js';

let t: TestApp;
let owner: Client;
let stranger: Client;

beforeAll(async () => {
  t = await createTestApp();
  owner = clientOf(t, (await signUp(t.app)).token);
  stranger = clientOf(t, (await signUp(t.app)).token);
});
afterAll(async () => t.close());

const LISTS = '/api/data/contact-lists';

describe('contact lists', () => {
  it('creates, renames, lists and deletes a list with its counts and state', async () => {
    const created = await owner.post(LISTS, { name: '  Customers  ', defaultCountry: 'UA' });
    expect(created.statusCode).toBe(200);
    const list = created.json();
    expect(list).toMatchObject({
      name: 'Customers',
      defaultCountry: 'UA',
      attributeNames: [],
      state: 'ready',
      counts: { total: 0, withEmail: 0, withPhone: 0, active: 0, unsubscribed: 0, bounced: 0, blocked: 0 },
    });

    const renamed = await owner.put(`${LISTS}/${list.id}`, { name: 'Clients' });
    expect(renamed.json()).toMatchObject({ name: 'Clients', defaultCountry: 'UA' });
    const recountried = await owner.put(`${LISTS}/${list.id}`, { name: 'Clients', defaultCountry: null });
    expect(recountried.json().defaultCountry).toBeNull();

    const page = await owner.get(`${LISTS}?search=lien`);
    expect(page.json()).toMatchObject({ total: 1, items: [{ id: list.id, name: 'Clients' }] });

    expect((await owner.delete(`${LISTS}/${list.id}`)).statusCode).toBe(200);
    expect((await owner.get(`${LISTS}/${list.id}`)).statusCode).toBe(404);
  });

  it('deletes a list with its contacts and leaves other lists alone', async () => {
    const [doomed, kept] = [await owner.createList(), await owner.createList()];
    for (const listId of [doomed, kept]) {
      await owner.importFile(listId, 'email,name\nann@example.com,Ann\nbob@example.com,Bob\n');
    }
    expect((await owner.delete(`${LISTS}/${doomed}`)).statusCode).toBe(200);
    const left = await t.database.db
      .selectFrom('contacts')
      .select(['list_id', 'email'])
      .where('list_id', 'in', [doomed, kept])
      .orderBy('email')
      .execute();
    expect(left).toEqual([
      { list_id: kept, email: 'ann@example.com' },
      { list_id: kept, email: 'bob@example.com' },
    ]);
    expect((await owner.delete(`${LISTS}/${doomed}`)).statusCode).toBe(404);
  });

  it('keeps a list whose import is running from being deleted', async () => {
    const listId = await owner.createList();
    const { importId } = (await owner.upload(listId, 'a.csv', 'email\nann@example.com\n')).json();
    await t.database.db
      .updateTable('imports')
      .set({ status: 'running', heartbeat_at: Date.now() })
      .where('id', '=', importId)
      .execute();
    expect((await owner.get(`${LISTS}/${listId}`)).json().state).toBe('importing');
    const refused = await owner.delete(`${LISTS}/${listId}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().key).toBe('contacts.listBusy');
    await t.database.db.updateTable('imports').set({ status: 'failed' }).where('id', '=', importId).execute();
    expect((await owner.delete(`${LISTS}/${listId}`)).statusCode).toBe(200);
  });

  it('are described in the OpenAPI document', async () => {
    const paths = Object.keys((await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json().paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/data/contact-lists',
        '/api/data/contact-lists/{id}/contacts/{contactId}',
        '/api/data/contact-lists/{id}/contacts/bulk',
        '/api/data/contact-lists/{id}/export.csv',
        '/api/data/contact-lists/{id}/imports',
        '/api/data/imports/{id}/start',
        '/api/data/imports/{id}/report.csv',
      ]),
    );
  });

  it('refuses a name already used by the account, an empty name and an unknown country', async () => {
    await owner.createList('Taken');
    const taken = await owner.post(LISTS, { name: 'Taken' });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().fields).toEqual([expect.objectContaining({ field: 'name', key: 'validation.nameExists' })]);
    expect((await stranger.post(LISTS, { name: 'Taken' })).statusCode).toBe(200);

    const blank = await owner.post(LISTS, { name: '   ', defaultCountry: 'QQ' });
    expect(blank.json().fields.map((field: { key: string }) => field.key)).toEqual([
      'validation.mandatory',
      'validation.unknownCountry',
    ]);
  });
});

describe('contacts', () => {
  it('adds a contact by the import rules and keeps the counts', async () => {
    const listId = await owner.createList();
    const added = await owner.post(`${LISTS}/${listId}/contacts`, {
      email: ' Ann@Example.COM ',
      phone: '050 123 45 67',
      name: 'Ann',
      language: 'Ukrainian',
      timeZone: 'europe/kyiv',
      attributes: { city: 'Kyiv', visits: 3, empty: '' },
    });
    expect(added.statusCode).toBe(200);
    expect(added.json()).toMatchObject({
      email: 'ann@example.com',
      phone: '+380501234567',
      country: 'UA',
      name: 'Ann',
      language: 'uk',
      status: 'active',
      attributes: { city: 'Kyiv', visits: '3' },
    });
    expect(added.json().timeZone).toMatch(/^Europe\/Ky?iev|Europe\/Kyiv$/);

    const list = (await owner.get(`${LISTS}/${listId}`)).json();
    expect(list.counts).toMatchObject({ total: 1, withEmail: 1, withPhone: 1, active: 1 });
    expect(list.attributeNames).toEqual(['city', 'visits']);
  });

  it('refuses duplicates, a contact without an address and broken fields, naming each field', async () => {
    const listId = await owner.createList();
    await owner.post(`${LISTS}/${listId}/contacts`, { email: 'ann@example.com', phone: '+380501234567' });
    const duplicate = await owner.post(`${LISTS}/${listId}/contacts`, { email: 'ANN@example.com', phone: '0501234567' });
    expect(duplicate.statusCode).toBe(400);
    expect(duplicate.json().fields.map((field: { field: string; key: string }) => [field.field, field.key])).toEqual([
      ['email', 'contacts.emailExists'],
      ['phone', 'contacts.phoneExists'],
    ]);
    const empty = await owner.post(`${LISTS}/${listId}/contacts`, { name: 'Nobody' });
    expect(empty.json().fields).toEqual([expect.objectContaining({ field: 'email', key: 'contacts.noAddress' })]);
    const broken = await owner.post(`${LISTS}/${listId}/contacts`, {
      email: 'nope',
      phone: '123',
      language: 'klingon',
      timeZone: 'Mars/Olympus',
      attributes: { 'bad name': 'x' },
    });
    expect(broken.json().fields.map((field: { field: string }) => field.field)).toEqual([
      'email',
      'phone',
      'language',
      'timeZone',
      'attributes.bad name',
    ]);
  });

  it('edits and deletes a contact, moving the counts', async () => {
    const listId = await owner.createList();
    const contact = (
      await owner.post(`${LISTS}/${listId}/contacts`, { email: 'ann@example.com', phone: '+380501234567' })
    ).json();
    const edited = await owner.put(`${LISTS}/${listId}/contacts/${contact.id}`, {
      email: 'ann@example.com',
      status: 'unsubscribed',
    });
    expect(edited.json()).toMatchObject({ phone: null, status: 'unsubscribed' });
    expect((await owner.get(`${LISTS}/${listId}`)).json().counts).toMatchObject({
      total: 1,
      withPhone: 0,
      active: 0,
      unsubscribed: 1,
    });

    const keptStatus = await owner.put(`${LISTS}/${listId}/contacts/${contact.id}`, { email: 'ann@example.com', name: 'Ann' });
    expect(keptStatus.json()).toMatchObject({ name: 'Ann', status: 'unsubscribed' });

    expect((await owner.delete(`${LISTS}/${listId}/contacts/${contact.id}`)).statusCode).toBe(200);
    expect((await owner.get(`${LISTS}/${listId}`)).json().counts).toMatchObject({ total: 0, withEmail: 0, unsubscribed: 0 });
    expect((await owner.get(`${LISTS}/${listId}/contacts/${contact.id}`)).statusCode).toBe(404);
  });

  it('pages newest first, searches by e-mail, phone or name and filters by status and attribute', async () => {
    const listId = await owner.createList();
    let rows = 'email,phone,name,city\n';
    for (let i = 1; i <= 25; i++)
      rows += `user${i}@example.com,+3805012300${String(i).padStart(2, '0')},User ${i},${i % 2 ? 'Kyiv' : 'Lviv'}\n`;
    expect((await owner.importFile(listId, rows)).imported).toBe(25);

    const first = (await owner.get(`${LISTS}/${listId}/contacts`)).json();
    expect(first.total).toBe(25);
    expect(first.items.map((contact: { name: string }) => contact.name)).toEqual(
      Array.from({ length: 10 }, (_, index) => `User ${25 - index}`),
    );
    expect((await owner.get(`${LISTS}/${listId}/contacts?page=3&size=10`)).json().items).toHaveLength(5);

    const byEmail = (await owner.get(`${LISTS}/${listId}/contacts?search=USER1`)).json();
    expect(byEmail.total).toBe(11);
    const byPhone = (await owner.get(`${LISTS}/${listId}/contacts?search=${encodeURIComponent('050 123 00 07')}`)).json();
    expect(byPhone.items.map((contact: { email: string }) => contact.email)).toEqual(['user7@example.com']);
    expect((await owner.get(`${LISTS}/${listId}/contacts?search=user%2012`)).json().total).toBe(1);
    expect((await owner.get(`${LISTS}/${listId}/contacts?search=50%25`)).json().total).toBe(0);

    const lviv = (await owner.get(`${LISTS}/${listId}/contacts?attribute=city&value=Lviv`)).json();
    expect(lviv.total).toBe(12);
    expect((await owner.get(`${LISTS}/${listId}/contacts?attribute=city`)).json().total).toBe(25);

    const bulk = await owner.post(`${LISTS}/${listId}/contacts/bulk`, {
      action: 'unsubscribe',
      filter: { attribute: 'city', value: 'Lviv' },
    });
    expect(bulk.json()).toEqual({ affected: 12 });
    expect((await owner.get(`${LISTS}/${listId}/contacts?status=unsubscribed`)).json().total).toBe(12);
    expect((await owner.get(`${LISTS}/${listId}/contacts?status=active&search=user2`)).json().total).toBe(3);
  });

  it('deletes or unsubscribes chosen contacts in bulk and recounts the list', async () => {
    const listId = await owner.createList();
    await owner.importFile(listId, 'email\na@example.com\nb@example.com\nc@example.com\nd@example.com\n');
    const [a, b, c] = await owner.allContacts(listId);
    expect((await owner.post(`${LISTS}/${listId}/contacts/bulk`, { action: 'unsubscribe', ids: [a!.id, b!.id] })).json()).toEqual(
      { affected: 2 },
    );
    expect((await owner.post(`${LISTS}/${listId}/contacts/bulk`, { action: 'delete', ids: [b!.id, c!.id] })).json()).toEqual({
      affected: 2,
    });
    expect((await owner.get(`${LISTS}/${listId}`)).json().counts).toMatchObject({ total: 2, active: 1, unsubscribed: 1 });
    expect((await owner.post(`${LISTS}/${listId}/contacts/bulk`, { action: 'delete', filter: {} })).json()).toEqual({
      affected: 2,
    });
    expect((await owner.get(`${LISTS}/${listId}`)).json().counts.total).toBe(0);
    expect((await owner.post(`${LISTS}/${listId}/contacts/bulk`, { action: 'delete' })).statusCode).toBe(400);
  });

  it('exports the list as CSV with cells a spreadsheet would run as formulas escaped', async () => {
    const listId = await owner.createList('Export me');
    await owner.post(`${LISTS}/${listId}/contacts`, {
      email: 'ann@example.com',
      phone: '+380501234567',
      name: '=HYPERLINK("http://evil.example","click")',
      attributes: { note: '@SUM(A1:A2)', plan: '-1' },
    });
    await owner.post(`${LISTS}/${listId}/contacts`, { email: 'bob@example.com', name: 'Bob, Jr.', attributes: { plan: 'pro' } });
    const res = await owner.get(`${LISTS}/${listId}/export.csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toContain('Export me.csv');
    expect(res.body).toBe(
      '\uFEFFemail,phone,name,language,time_zone,status,note,plan\r\n' +
        `ann@example.com,'+380501234567,"'=HYPERLINK(""http://evil.example"",""click"")",,,active,'@SUM(A1:A2),'-1\r\n` +
        'bob@example.com,,"Bob, Jr.",,,active,,pro\r\n',
    );
    const filtered = await owner.get(`${LISTS}/${listId}/export.csv?search=bob`);
    expect(filtered.body.split('\r\n')).toHaveLength(3);
  });
});

describe("another account's lists", () => {
  it('are 404 on every verb, exactly like missing ones', async () => {
    const listId = await owner.createList();
    const contact = (await owner.post(`${LISTS}/${listId}/contacts`, { email: 'ann@example.com' })).json();
    const base = `${LISTS}/${listId}`;
    const calls = [
      stranger.get(base),
      stranger.put(base, { name: 'Mine now' }),
      stranger.delete(base),
      stranger.get(`${base}/contacts`),
      stranger.post(`${base}/contacts`, { email: 'eve@example.com' }),
      stranger.post(`${base}/contacts/bulk`, { action: 'delete', filter: {} }),
      stranger.get(`${base}/contacts/${contact.id}`),
      stranger.put(`${base}/contacts/${contact.id}`, { email: 'eve@example.com' }),
      stranger.delete(`${base}/contacts/${contact.id}`),
      stranger.get(`${base}/export.csv`),
      stranger.get(`${base}/imports`),
      stranger.upload(listId, 'contacts.csv', 'email\neve@example.com\n'),
    ];
    const missing = await stranger.get(`${LISTS}/999999`);
    for (const res of await Promise.all(calls)) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(missing.json());
    }
    expect((await owner.allContacts(listId)).map((entry) => (entry as unknown as { email: string }).email)).toEqual([
      'ann@example.com',
    ]);
  });
});
