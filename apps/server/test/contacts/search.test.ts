import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactsFoldedName } from '../../src/db/migrations/0012_contacts_folded_name.js';
import { createTestApp, signUp, type TestApp } from '../helpers/app.js';
import { type Client, clientOf } from './api.js';

const LISTS = '/api/data/contact-lists';

let t: TestApp;
let owner: Client;

beforeAll(async () => {
  t = await createTestApp();
  owner = clientOf(t, (await signUp(t.app)).token);
});
afterAll(async () => t.close());

async function namesFound(listId: number, search: string): Promise<string[]> {
  const res = await owner.get(`${LISTS}/${listId}/contacts?search=${encodeURIComponent(search)}`);
  expect(res.statusCode).toBe(200);
  return (res.json().items as { name: string }[]).map((contact) => contact.name).sort();
}

describe('searching contacts by name in any case and script', () => {
  it('finds Cyrillic and Latin names whatever the case of the term, after adding, importing and updating', async () => {
    const listId = await owner.createList();
    const added = await owner.post(`${LISTS}/${listId}/contacts`, { email: 'olena@example.com', name: 'Олена Шевченко' });
    expect(added.statusCode).toBe(200);
    expect(
      await owner.importFile(listId, 'email,name\nivan@example.com,ІВАН Петренко\nann@example.com,Ann Smith\nbob@example.com,\n'),
    ).toMatchObject({ status: 'done', imported: 3 });

    expect(await namesFound(listId, 'олена')).toEqual(['Олена Шевченко']);
    expect(await namesFound(listId, 'ШЕВЧ')).toEqual(['Олена Шевченко']);
    expect(await namesFound(listId, 'іван п')).toEqual(['ІВАН Петренко']);
    expect(await namesFound(listId, 'aNN s')).toEqual(['Ann Smith']);
    expect(await namesFound(listId, 'ко')).toEqual(['ІВАН Петренко', 'Олена Шевченко']);

    await owner.put(`${LISTS}/${listId}/contacts/${added.json().id}`, { email: 'olena@example.com', name: 'Олена Коваль' });
    expect(await namesFound(listId, 'КОВАЛЬ')).toEqual(['Олена Коваль']);
    expect(await namesFound(listId, 'шевченко')).toEqual([]);

    await owner.importFile(listId, 'email,name\nivan@example.com,Іван Бондар\nbob@example.com,Богдан\n', { mode: 'update' });
    expect(await namesFound(listId, 'бонд')).toEqual(['Іван Бондар']);
    expect(await namesFound(listId, 'БОГДАН')).toEqual(['Богдан']);
    expect(await namesFound(listId, 'петренко')).toEqual([]);

    await owner.importFile(listId, 'email,name\nzoya@example.com,ЗОЯ\n', { mode: 'replace' });
    expect(await namesFound(listId, 'зоя')).toEqual(['ЗОЯ']);
  });

  it('folds the names of contacts stored before the folded column existed', async () => {
    const listId = await owner.createList();
    await owner.post(`${LISTS}/${listId}/contacts`, { email: 'a@example.com', name: 'Ярослава' });
    await owner.post(`${LISTS}/${listId}/contacts`, { email: 'b@example.com', name: 'ÉLODIE' });
    await owner.post(`${LISTS}/${listId}/contacts`, { email: 'c@example.com' });
    const { db, dialect } = t.database;
    // As the database was before migration 0012: no folded column at all.
    await sql`alter table contacts drop column name_folded`.execute(db);
    await contactsFoldedName.up(db, dialect);
    const rows = await db
      .selectFrom('contacts')
      .select(['email', 'name_folded'])
      .where('list_id', '=', listId)
      .orderBy('email')
      .execute();
    expect(rows).toEqual([
      { email: 'a@example.com', name_folded: 'ярослава' },
      { email: 'b@example.com', name_folded: 'élodie' },
      { email: 'c@example.com', name_folded: null },
    ]);
    expect(await namesFound(listId, 'ЯРОСЛ')).toEqual(['Ярослава']);
  });
});
