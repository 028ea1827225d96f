import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as files from '../fixtures/contacts/files.js';
import { createTestApp, signUp, TEST_DB, type TestApp } from '../helpers/app.js';
import { type Client, clientOf } from './api.js';

const LISTS = '/api/data/contact-lists';
const IMPORTS = '/api/data/imports';

let t: TestApp;
let owner: Client;

beforeAll(async () => {
  t = await createTestApp();
  owner = clientOf(t, (await signUp(t.app)).token);
});
afterAll(async () => t.close());

/** Waits, as long as a loaded machine needs, until the import is no longer running. */
async function settled(importId: number) {
  for (;;) {
    const state = (await owner.get(`${IMPORTS}/${importId}`)).json();
    if (state.status !== 'running') return state;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function listState(listId: number) {
  return { list: (await owner.get(`${LISTS}/${listId}`)).json().counts, contacts: await owner.allContacts(listId) };
}

/**
 * An add import writes its batches into the list as it reads on PostgreSQL (inside one transaction) and stages them
 * on SQLite: either way the list must come out of a failure or a cancel exactly as it went in.
 */
describe('an add import that stops halfway', () => {
  it('fails on binary content after many batches and leaves the list exactly as it was', async () => {
    const listId = await owner.createList();
    await owner.importFile(listId, `email,phone,name\n${files.contactRows(3, 500_000)}`);
    const before = await listState(listId);
    const done = await owner.importFile(listId, files.garbageTail(30_000));
    expect(done).toMatchObject({ status: 'failed', error: { key: 'import.binaryContent' }, imported: 0 });
    expect(await listState(listId)).toEqual(before);
  }, 180_000);

  it('into an empty list (copied in on PostgreSQL) fails on binary content after many batches and leaves it empty', async () => {
    const listId = await owner.createList();
    const done = await owner.importFile(listId, files.garbageTail(30_000));
    expect(done).toMatchObject({ status: 'failed', error: { key: 'import.binaryContent' }, imported: 0 });
    expect(await listState(listId)).toMatchObject({ list: { total: 0, withEmail: 0, withPhone: 0 }, contacts: [] });
  }, 180_000);

  it('stops when cancelled and leaves the list exactly as it was; started again, it imports everything', async () => {
    const listId = await owner.createList();
    await owner.importFile(listId, `email,phone,name\n${files.contactRows(3, 500_000)}`);
    const before = await listState(listId);
    const { importId, preview } = (
      await owner.upload(listId, 'big.csv', `email,phone,name\n${files.contactRows(200_000)}`)
    ).json();
    await owner.post(`${IMPORTS}/${importId}/start`, { mapping: preview.suggestedMapping, mode: 'add' });
    expect((await owner.post(`${IMPORTS}/${importId}/cancel`)).statusCode).toBe(200);
    expect(await settled(importId)).toMatchObject({ status: 'cancelled', imported: 0 });
    expect(await listState(listId)).toEqual(before);

    await owner.post(`${IMPORTS}/${importId}/start`, { mapping: preview.suggestedMapping, mode: 'add' });
    expect(await settled(importId)).toMatchObject({ status: 'done', imported: 200_000, duplicates: 0 });
    expect((await owner.get(`${LISTS}/${listId}`)).json().counts).toMatchObject({ total: 200_003, withPhone: 200_003 });
  }, 180_000);
});

/**
 * Into a list that is empty when it starts, an add import on PostgreSQL copies its rows in, which cannot skip
 * conflicts; a contact added to the list meanwhile makes a copy fail.
 */
describe.skipIf(TEST_DB !== 'postgres')('an add import into an empty list while a contact is added to it', () => {
  it('starts over skipping conflicts, and the contact added meanwhile stays as it was', async () => {
    const { db } = t.database;
    const listId = await owner.createList();
    const { account_id } = await db
      .selectFrom('contact_lists')
      .select('account_id')
      .where('id', '=', listId)
      .executeTakeFirstOrThrow();
    const other = await db.startTransaction().execute();
    let importId: number;
    try {
      const now = Date.now();
      await other
        .insertInto('contacts')
        .values({
          account_id,
          list_id: listId,
          email: 'user5@example.com',
          name: 'Added meanwhile',
          created_at: now,
          updated_at: now,
        })
        .execute();
      const { rows } = await sql<{ xid: string }>`select pg_current_xact_id()::xid::text as xid`.execute(other);
      const uploaded = (await owner.upload(listId, 'contacts.csv', `email,phone,name\n${files.contactRows(20)}`)).json();
      importId = uploaded.importId;
      await owner.post(`${IMPORTS}/${importId}/start`, { mapping: uploaded.preview.suggestedMapping, mode: 'add' });
      // The import found the list empty (the contact is not committed) and its copy now waits for this transaction.
      for (;;) {
        const waiting = await sql<{ n: number }>`select count(*) as n from pg_locks
          where locktype = 'transactionid' and not granted and transactionid::text = ${rows[0]!.xid}`.execute(db);
        if (Number(waiting.rows[0]!.n) > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await other.commit().execute();
    } catch (error) {
      await other.rollback().execute();
      throw error;
    }
    expect(await settled(importId)).toMatchObject({ status: 'done', imported: 19, duplicates: 1 });
    const contacts = (await owner.allContacts(listId)) as unknown as { email: string; phone: string | null; name: string }[];
    expect(contacts).toHaveLength(20);
    expect(contacts.find((contact) => contact.email === 'user5@example.com')).toMatchObject({
      phone: null,
      name: 'Added meanwhile',
    });
  }, 60_000);
});
