import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportRunner } from '../../src/contacts/import/runner.js';
import * as files from '../fixtures/contacts/files.js';
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
const IMPORTS = '/api/data/imports';

/** Everything an import could change about a list: its contacts and its counts. */
async function listState(client: Client, listId: number) {
  return { contacts: await client.allContacts(listId), list: (await client.get(`${LISTS}/${listId}`)).json() };
}

describe('an import from upload to contacts', () => {
  it('previews the first 10 records, imports in the background and reports its counts', async () => {
    const listId = await owner.createList();
    const uploaded = await owner.upload(listId, 'customers.csv', `email,phone,name\n${files.contactRows(25)}`);
    expect(uploaded.statusCode).toBe(200);
    const { importId, preview } = uploaded.json();
    expect(preview).toMatchObject({
      encoding: 'utf-8',
      separator: ',',
      hasHeader: true,
      header: ['email', 'phone', 'name'],
      columnCount: 3,
      suggestedMapping: { 0: 'email', 1: 'phone', 2: 'name' },
      defaultCountry: 'UA',
    });
    expect(preview.rows).toHaveLength(10);
    expect(preview.rows[0]).toEqual(['user0@example.com', '+380501000000', 'User 0']);

    const pending = (await owner.get(`${IMPORTS}/${importId}`)).json();
    expect(pending).toMatchObject({ status: 'pending', fileName: 'customers.csv', fileKept: true, preview: { columnCount: 3 } });

    const started = await owner.post(`${IMPORTS}/${importId}/start`, { mapping: preview.suggestedMapping, mode: 'add' });
    expect(started.statusCode).toBe(200);
    expect(started.json()).toMatchObject({ status: 'running', mode: 'add' });
    const done = await owner.settled(importId);
    expect(done).toMatchObject({
      status: 'done',
      phase: null,
      rowsDone: 25,
      rowsTotal: 25,
      imported: 25,
      updated: 0,
      duplicates: 0,
      invalid: 0,
      error: null,
      fileKept: false,
    });
    expect(done.rowsPerSecond).toBeGreaterThan(0);

    const list = (await owner.get(`${LISTS}/${listId}`)).json();
    expect(list).toMatchObject({ state: 'ready', counts: { total: 25, withEmail: 25, withPhone: 25, active: 25 } });
    const found = (await owner.get(`${LISTS}/${listId}/contacts?search=user17@`)).json();
    expect(found.items).toEqual([
      expect.objectContaining({ email: 'user17@example.com', phone: '+380501000017', country: 'UA', name: 'User 17' }),
    ]);

    const history = (await owner.get(`${LISTS}/${listId}/imports`)).json();
    expect(history).toMatchObject({ total: 1, items: [{ id: importId, status: 'done', imported: 25 }] });
    expect(
      (await owner.post(`${IMPORTS}/${importId}/start`, { mapping: preview.suggestedMapping, mode: 'add' })).statusCode,
    ).toBe(409);
  });

  it('imports Windows-1251 and one-column TXT files', async () => {
    const listId = await owner.createList();
    expect(await owner.importFile(listId, files.cp1251Semicolon)).toMatchObject({ status: 'done', imported: 2 });
    const names = (await owner.allContacts(listId)).map((contact) => (contact as unknown as { name: string }).name);
    expect(names).toEqual(['Іван Петренко', 'Ольга Ёлкина']);
    expect((await owner.get(`${LISTS}/${listId}`)).json().attributeNames).toEqual(['Город']);

    const emails = await owner.createList();
    expect(await owner.importFile(emails, files.emailsTxt)).toMatchObject({ imported: 3 });
    const phones = await owner.createList();
    expect(await owner.importFile(phones, files.phonesTxt)).toMatchObject({ imported: 3 });
    const saved = (await owner.allContacts(phones)).map((contact) => (contact as unknown as { phone: string }).phone);
    expect(saved).toEqual(['+380501234567', '+380501234568', '+380631234569']);
  });

  it('reports invalid rows by line and reason, on the import and as a CSV', async () => {
    const listId = await owner.createList();
    const done = await owner.importFile(listId, files.invalidValues);
    expect(done).toMatchObject({ status: 'done', imported: 1, invalid: 4, reportAvailable: true });
    expect(done.invalidSample).toEqual([
      { line: 3, key: 'import.row.invalidEmail', message: 'Invalid e-mail: not-an-email' },
      { line: 4, key: 'import.row.invalidPhone', message: 'Invalid phone number: 12345' },
      { line: 5, key: 'import.row.noContact', message: 'Neither an e-mail nor a phone number' },
      { line: 6, key: 'import.row.invalidStatus', message: 'Unknown status: gone (active, unsubscribed, bounced or blocked)' },
    ]);

    const columns = await owner.importFile(await owner.createList(), files.wrongColumnCounts);
    expect(columns).toMatchObject({ imported: 2, invalid: 2 });
    const report = await owner.get(`${IMPORTS}/${columns.id}/report.csv`);
    expect(report.statusCode).toBe(200);
    expect(report.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(report.body).toBe(
      '\uFEFFline,reason,row\r\n' +
        '3,"Expected 2 columns, found 3","bob@example.com,Bob,extra"\r\n' +
        '5,"Expected 2 columns, found 1",dan@example.com\r\n',
    );
  });

  it('counts duplicates inside the file and against the list, keeping the first', async () => {
    const listId = await owner.createList();
    await owner.post(`${LISTS}/${listId}/contacts`, { email: 'old@example.com', name: 'Old' });
    const done = await owner.importFile(
      listId,
      'email,name\nann@example.com,First\nANN@example.com,Second\nold@example.com,Changed\nbob@example.com,Bob\n',
    );
    expect(done).toMatchObject({ imported: 2, duplicates: 2, updated: 0 });
    const contacts = (await owner.allContacts(listId)) as unknown as { email: string; name: string }[];
    expect(contacts.map((contact) => [contact.email, contact.name])).toEqual([
      ['old@example.com', 'Old'],
      ['ann@example.com', 'First'],
      ['bob@example.com', 'Bob'],
    ]);
  });

  it('into an empty list keeps the first row of each e-mail and of each phone, whichever row repeated it', async () => {
    const listId = await owner.createList();
    const done = await owner.importFile(
      listId,
      'email,phone,name\n' +
        'ann@example.com,+380501111111,Ann\n' +
        'ANN@example.com,+380502222222,Ann again\n' +
        // Its phone came with a row that was left out, so it is new to the list.
        'cat@example.com,+380502222222,Cat\n' +
        'dan@example.com,050 111 11 11,Dan\n' +
        'eve@example.com,,Eve\n',
    );
    expect(done).toMatchObject({ status: 'done', imported: 3, duplicates: 2 });
    const contacts = (await owner.allContacts(listId)) as unknown as { email: string; phone: string | null; name: string }[];
    expect(contacts.map((contact) => [contact.email, contact.phone, contact.name]).sort()).toEqual([
      ['ann@example.com', '+380501111111', 'Ann'],
      ['cat@example.com', '+380502222222', 'Cat'],
      ['eve@example.com', null, 'Eve'],
    ]);
    expect((await owner.get(`${LISTS}/${listId}`)).json().counts).toMatchObject({ total: 3, withEmail: 3, withPhone: 2 });
  });

  it("counts the list's contacts by e-mail, phone and status, into an empty list and into one with contacts", async () => {
    const file =
      'email,phone,status\n' +
      'ann@example.com,+380501111111,unsubscribed\n' +
      'bob@example.com,,bounced\n' +
      'cat@example.com,+380502222222,blocked\n' +
      'ANN@example.com,+380503333333,active\n' +
      'dan@example.com,+380503333333,\n' +
      ',+380504444444,active\n';
    const empty = await owner.createList();
    expect(await owner.importFile(empty, file)).toMatchObject({ status: 'done', imported: 5, duplicates: 1 });
    const filled = await owner.createList();
    await owner.post(`${LISTS}/${filled}/contacts`, { email: 'cat@example.com' });
    expect(await owner.importFile(filled, file)).toMatchObject({ status: 'done', imported: 4, duplicates: 2 });
    for (const listId of [empty, filled]) {
      const contacts = (await owner.allContacts(listId)) as unknown as {
        email: string | null;
        phone: string | null;
        status: string;
      }[];
      const withStatus = (status: string) => contacts.filter((contact) => contact.status === status).length;
      expect((await owner.get(`${LISTS}/${listId}`)).json().counts).toEqual({
        total: contacts.length,
        withEmail: contacts.filter((contact) => contact.email !== null).length,
        withPhone: contacts.filter((contact) => contact.phone !== null).length,
        active: withStatus('active'),
        unsubscribed: withStatus('unsubscribed'),
        bounced: withStatus('bounced'),
        blocked: withStatus('blocked'),
      });
    }
  });

  it('keeps backslashes, tabs, line breaks and \\N inside names exactly as the file has them', async () => {
    const names = ['Back\\slash', 'Tab\there', 'Two\nlines', 'Carriage\r\nreturn', '\\N', 'Ends with \\'];
    const listId = await owner.createList();
    const rows = names.map((name, i) => `n${i}@example.com,"${name}"`).join('\n');
    const done = await owner.importFile(listId, `email,name\n${rows}\n`);
    expect(done).toMatchObject({ status: 'done', imported: names.length, invalid: 0 });
    const contacts = (await owner.allContacts(listId)) as unknown as { email: string; name: string }[];
    expect(contacts.map((contact) => contact.name).sort()).toEqual([...names].sort());
  });

  it('updates existing contacts in update mode, by e-mail and else by phone, and adds the new ones', async () => {
    const listId = await owner.createList();
    await owner.post(`${LISTS}/${listId}/contacts`, {
      email: 'ann@example.com',
      name: 'Ann',
      status: 'unsubscribed',
      attributes: { city: 'Kyiv', plan: 'free' },
    });
    await owner.post(`${LISTS}/${listId}/contacts`, { phone: '+380631234567', name: 'Phone only' });
    const done = await owner.importFile(
      listId,
      'email,phone,name,plan\n' +
        'ann@example.com,+380501234567,Ann K.,pro\n' +
        'bob@example.com,063 123 45 67,Bob,\n' +
        'cat@example.com,,Cat,free\n' +
        'ann@example.com,,Ann again,\n',
      { mode: 'update' },
    );
    expect(done).toMatchObject({ status: 'done', updated: 2, imported: 1, duplicates: 1 });
    const contacts = (await owner.allContacts(listId)) as unknown as Record<string, unknown>[];
    expect(contacts.map(({ email, phone, name, status, attributes }) => ({ email, phone, name, status, attributes }))).toEqual([
      {
        email: 'ann@example.com',
        phone: '+380501234567',
        name: 'Ann K.',
        status: 'unsubscribed',
        attributes: { city: 'Kyiv', plan: 'pro' },
      },
      { email: 'bob@example.com', phone: '+380631234567', name: 'Bob', status: 'active', attributes: {} },
      { email: 'cat@example.com', phone: null, name: 'Cat', status: 'active', attributes: { plan: 'free' } },
    ]);
    expect((await owner.get(`${LISTS}/${listId}`)).json()).toMatchObject({
      attributeNames: ['city', 'plan'],
      counts: { total: 3, withEmail: 3, withPhone: 2, unsubscribed: 1 },
    });
  });

  it('replaces the list in replace mode without re-subscribing anybody', async () => {
    const listId = await owner.createList();
    await owner.importFile(listId, 'email,name\nann@example.com,Ann\nbob@example.com,Bob\ncat@example.com,Cat\n');
    const [ann] = await owner.allContacts(listId);
    await owner.put(`${LISTS}/${listId}/contacts/${ann!.id}`, { email: 'ann@example.com', status: 'unsubscribed' });
    const done = await owner.importFile(listId, 'email,name\nann@example.com,Ann New\ndan@example.com,Dan\n', {
      mode: 'replace',
    });
    expect(done).toMatchObject({ status: 'done', imported: 2, removed: 3, duplicates: 0 });
    const contacts = (await owner.allContacts(listId)) as unknown as { email: string; name: string; status: string }[];
    expect(contacts.map(({ email, name, status }) => [email, name, status])).toEqual([
      ['ann@example.com', 'Ann New', 'unsubscribed'],
      ['dan@example.com', 'Dan', 'active'],
    ]);
    expect((await owner.get(`${LISTS}/${listId}`)).json().counts).toMatchObject({ total: 2, unsubscribed: 1, active: 1 });
  });

  it('re-reads the file with the settings the user picks', async () => {
    const listId = await owner.createList();
    const { importId } = (await owner.upload(listId, 'plain.txt', files.headerWithoutAddresses, 'text/plain')).json();
    const changed = await owner.post(`${IMPORTS}/${importId}/preview`, { hasHeader: true, separator: null });
    expect(changed.json().preview).toMatchObject({
      hasHeader: true,
      separator: null,
      header: ['city,plan'],
      rows: [['Kyiv,pro'], ['Lviv,free']],
    });
    const refused = await owner.post(`${IMPORTS}/${importId}/start`, { mapping: { 0: 'attribute:city' }, mode: 'add' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields).toEqual([expect.objectContaining({ field: 'mapping', key: 'import.mappingNoContact' })]);
  });
});

describe('a failed or cancelled import', () => {
  it('fails on binary content past the first 64 KB and leaves the list exactly as it was', async () => {
    const listId = await owner.createList();
    await owner.importFile(listId, `email,phone,name\n${files.contactRows(3, 5000)}`);
    const before = await listState(owner, listId);
    const done = await owner.importFile(listId, files.garbageTail(2000), { mode: 'replace' });
    expect(done).toMatchObject({ status: 'failed', error: { key: 'import.binaryContent' }, imported: 0 });
    expect(done.error.message).toContain('Line 2002');
    expect(await listState(owner, listId)).toEqual(before);
  });

  it('stops when cancelled, leaving the list exactly as it was', async () => {
    const listId = await owner.createList();
    await owner.importFile(listId, `email,phone,name\n${files.contactRows(3, 90_000)}`);
    const before = await listState(owner, listId);
    const { importId, preview } = (
      await owner.upload(listId, 'big.csv', `email,phone,name\n${files.contactRows(10_000)}`)
    ).json();
    await owner.post(`${IMPORTS}/${importId}/start`, { mapping: preview.suggestedMapping, mode: 'replace' });
    const cancelled = await owner.post(`${IMPORTS}/${importId}/cancel`);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().cancelRequested).toBe(true);
    const done = await owner.settled(importId);
    expect(done).toMatchObject({ status: 'cancelled', imported: 0, error: null, fileKept: true });
    expect(await listState(owner, listId)).toEqual(before);
    expect((await owner.post(`${IMPORTS}/${importId}/cancel`)).statusCode).toBe(409);

    const again = await owner.post(`${IMPORTS}/${importId}/start`, { mapping: preview.suggestedMapping, mode: 'add' });
    expect(again.statusCode).toBe(200);
    expect(await owner.settled(importId)).toMatchObject({ status: 'done', imported: 10_000 });
  });

  it('shows an import whose process stopped as interrupted; it can be started again', async () => {
    const listId = await owner.createList();
    const { importId, preview } = (await owner.upload(listId, 'a.csv', 'email\nann@example.com\n')).json();
    const stopped = { status: 'running', phase: 'reading', started_at: Date.now() - 130_000, heartbeat_at: Date.now() - 120_000 };
    await t.database.db.updateTable('imports').set(stopped).where('id', '=', importId).execute();
    expect((await owner.get(`${LISTS}/${listId}`)).json().state).toBe('importing');
    const seen = (await owner.get(`${IMPORTS}/${importId}`)).json();
    expect(seen).toMatchObject({ status: 'failed', error: { key: 'import.interrupted' }, fileKept: true });
    expect((await owner.get(`${LISTS}/${listId}`)).json().state).toBe('ready');
    await owner.post(`${IMPORTS}/${importId}/start`, { mapping: preview.suggestedMapping, mode: 'add' });
    expect(await owner.settled(importId)).toMatchObject({ status: 'done', imported: 1 });
  });

  it('is swept at start: stopped imports fail, uploads kept past a week are removed', async () => {
    const listId = await owner.createList();
    const stale = (await owner.upload(listId, 'a.csv', 'email\nann@example.com\n')).json().importId;
    const old = (await owner.upload(listId, 'b.csv', 'email\nbob@example.com\n')).json().importId;
    const { db } = t.database;
    await db
      .updateTable('imports')
      .set({ status: 'running', heartbeat_at: Date.now() - 120_000 })
      .where('id', '=', stale)
      .execute();
    await db
      .updateTable('imports')
      .set({ created_at: Date.now() - 8 * 24 * 60 * 60 * 1000 })
      .where('id', '=', old)
      .execute();
    await new ImportRunner({
      db,
      dialect: t.database.dialect,
      holdConnection: t.database.holdConnection,
      dataDir: t.config.dataDir,
      log: t.app.log,
    }).sweep();
    expect((await owner.get(`${IMPORTS}/${stale}`)).json()).toMatchObject({
      status: 'failed',
      error: { key: 'import.interrupted' },
    });
    expect((await owner.get(`${IMPORTS}/${old}`)).json()).toMatchObject({ status: 'pending', fileKept: false });
    expect((await owner.post(`${IMPORTS}/${old}/start`, { mapping: { 0: 'email' }, mode: 'add' })).json().key).toBe(
      'import.fileGone',
    );
  });

  it('cancels a waiting import at once', async () => {
    const listId = await owner.createList();
    const { importId } = (await owner.upload(listId, 'a.csv', 'email\nann@example.com\n')).json();
    expect((await owner.post(`${IMPORTS}/${importId}/cancel`)).json()).toMatchObject({
      status: 'cancelled',
      cancelRequested: false,
    });
  });
});

describe('uploads that are refused', () => {
  it('refuses a wrong extension, a wrong content type, binary content and an empty file', async () => {
    const listId = await owner.createList();
    const cases = [
      await owner.upload(listId, 'contacts.xlsx', 'email\nann@example.com\n'),
      await owner.upload(listId, 'contacts.csv', 'email\nann@example.com\n', 'image/png'),
      await owner.upload(listId, 'contacts.csv', files.png),
    ];
    for (const res of cases) {
      expect(res.statusCode).toBe(400);
      expect(res.json().fields).toEqual([expect.objectContaining({ field: 'file', key: 'upload.wrongFile' })]);
    }
    const empty = await owner.upload(listId, 'contacts.csv', '');
    expect(empty.json()).toMatchObject({ statusCode: 400, key: 'import.emptyFile' });
    expect((await owner.get(`${LISTS}/${listId}/imports`)).json().total).toBe(0);
  });

  it('answers 413 over the configured size limit, whether the request declares it or not', async () => {
    const small = await createTestApp({ importMaxBytes: 1024 });
    try {
      const client = clientOf(small, (await signUp(small.app)).token);
      const listId = await client.createList();
      for (const rows of [100, 5000]) {
        const res = await client.upload(listId, 'big.csv', `email,phone,name\n${files.contactRows(rows)}`);
        expect(res.statusCode).toBe(413);
        expect(res.json()).toMatchObject({ key: 'upload.tooLarge', message: 'The file is too large (limit 1 KB).' });
      }
      expect((await client.upload(listId, 'small.csv', 'email\nann@example.com\n')).statusCode).toBe(200);
    } finally {
      await small.close();
    }
  });
});

describe("another account's imports", () => {
  it('are 404 on every verb, exactly like missing ones', async () => {
    const listId = await owner.createList();
    const { importId, preview } = (await owner.upload(listId, 'a.csv', 'email\nann@example.com\n')).json();
    const base = `${IMPORTS}/${importId}`;
    const missing = await stranger.get(`${IMPORTS}/999999`);
    const calls = [
      stranger.get(base),
      stranger.post(`${base}/preview`, { hasHeader: false }),
      stranger.post(`${base}/start`, { mapping: preview.suggestedMapping, mode: 'add' }),
      stranger.post(`${base}/cancel`),
      stranger.get(`${base}/report.csv`),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(missing.json());
    }
    expect((await owner.get(base)).json().status).toBe('pending');
  });
});
