/** Several processes starting at once on a fresh database: one first admin, the others see it. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TIME_ZONES } from '@herald/shared/reference';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createFirstAdmin, defaultTimeZoneId } from '../../src/auth/service.js';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { openTestDatabase, TEST_DATABASE_URL, TEST_DB } from '../helpers/app.js';

const STARTING_PROCESSES = 6;
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Handles of their own (own connections) on one fresh, migrated database, as separate processes would have. */
async function sharedDatabase(count: number): Promise<DatabaseHandle[]> {
  if (TEST_DB === 'sqlite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'herald-first-admin-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'herald.db');
    const handles = Array.from({ length: count }, () => openDatabase({ sqliteFile: file }));
    cleanups.push(async () => {
      for (const handle of handles) await handle.close();
    });
    await migrateToLatest(handles[0]!);
    return handles;
  }
  const { database, drop } = await openTestDatabase();
  cleanups.push(drop);
  await migrateToLatest(database);
  const schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db)).rows[0]!.schema;
  const others = Array.from({ length: count - 1 }, () => openDatabase({ databaseUrl: TEST_DATABASE_URL, pgSchema: schema }));
  const handles = [database, ...others];
  cleanups.push(async () => {
    for (const handle of handles) await handle.close();
  });
  return handles;
}

describe('first admin', () => {
  it('is created once when several processes start together on a fresh database', async () => {
    const handles = await sharedDatabase(STARTING_PROCESSES);
    const results = await Promise.all(handles.map((handle) => createFirstAdmin(handle.db)));
    const created = results.filter((result) => result !== null);
    expect(created).toHaveLength(1);
    const accounts = await handles[0]!.db.selectFrom('accounts').select(['id', 'email', 'is_admin']).execute();
    expect(accounts).toEqual([{ id: created[0]!.accountId, email: 'admin@herald.local', is_admin: 1 }]);
    // A later start sees it too.
    expect(await createFirstAdmin(handles[1]!.db)).toBeNull();
  });

  it('is not created once any account exists', async () => {
    const [handle] = await sharedDatabase(1);
    const now = Date.now();
    await handle!.db
      .insertInto('accounts')
      .values({
        email: 'first@example.com',
        password_hash: 'x',
        time_zone_id: '001',
        avatar: 'a',
        language: null,
        profile: 'site',
        is_admin: 0,
        created_at: now,
        updated_at: now,
      })
      .execute();
    expect(await createFirstAdmin(handle!.db)).toBeNull();
    const admins = await handle!.db.selectFrom('accounts').select('id').where('is_admin', '=', 1).execute();
    expect(admins).toHaveLength(0);
  });

  it("lives in the server's time zone, UTC on a server running in UTC (not the reference's first entry, UTC−12)", () => {
    const before = process.env.TZ;
    try {
      process.env.TZ = 'UTC';
      expect(TIME_ZONES.find((zone) => zone.id === defaultTimeZoneId())).toMatchObject({ value: 'UTC', offset: 0 });
      process.env.TZ = 'Europe/Kyiv';
      expect(TIME_ZONES.find((zone) => zone.id === defaultTimeZoneId())?.utc).toContain('Europe/Kyiv');
    } finally {
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    }
  });
});
