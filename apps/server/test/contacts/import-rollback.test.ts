import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as files from '../fixtures/contacts/files.js';
import { createTestApp, signUp, type TestApp } from '../helpers/app.js';
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
