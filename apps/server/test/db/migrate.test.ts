/** Starting on a PostgreSQL database that other applications (or parallel test files) share. */
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { openTestDatabase, TEST_DATABASE_URL, TEST_DB } from '../helpers/app.js';

const NEIGHBOUR_TABLES = 20;

describe.skipIf(TEST_DB !== 'postgres')('migrations on a shared PostgreSQL database', () => {
  let database: DatabaseHandle;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ database, drop } = await openTestDatabase());
  });
  afterAll(async () => {
    await database.close();
    await drop();
  });

  it('migrate and restart while a neighbour keeps creating and dropping schemas', { timeout: 60_000 }, async () => {
    const neighbour = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await neighbour.connect();
    const prefix = `neighbour_${process.pid}_${Date.now()}`;
    let churning = true;
    const churn = (async () => {
      for (let round = 0; churning; round++) {
        const schema = `${prefix}_${round}`;
        const tables = Array.from(
          { length: NEIGHBOUR_TABLES },
          (_, i) => `create table ${schema}.t${i} (id serial primary key, name text);`,
        );
        await neighbour.query(`create schema ${schema}; ${tables.join(' ')}`);
        await neighbour.query(`drop schema ${schema} cascade`);
      }
    })();
    try {
      // Each start runs the migrator again: it checks its own tables every time.
      for (let start = 0; start < 15; start++) await migrateToLatest(database);
    } finally {
      churning = false;
      await churn;
      await neighbour.end();
    }
    const { rows } = await sql<{ count: number }>`select count(*)::int as count from kysely_migration`.execute(database.db);
    expect(rows[0]!.count).toBeGreaterThan(10);
  });

  it('sees only its own schema when it looks at its tables', async () => {
    const neighbour = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await neighbour.connect();
    const other = `neighbour_${process.pid}_${Date.now()}`;
    await neighbour.query(`create schema ${other}; create table ${other}.messages (id serial primary key)`);
    const tables = await database.db.introspection.getTables().finally(async () => {
      await neighbour.query(`drop schema ${other} cascade`);
      await neighbour.end();
    });
    const schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db)).rows[0]!.schema;
    expect(new Set(tables.map((table) => table.schema))).toEqual(new Set([schema]));
    const messages = tables.find((table) => table.name === 'messages');
    const id = messages?.columns.find((column) => column.name === 'id');
    expect(id).toMatchObject({ isAutoIncrementing: true, isNullable: false, hasDefaultValue: true });
    const status = messages?.columns.find((column) => column.name === 'status');
    expect(status).toMatchObject({ isAutoIncrementing: false, dataType: 'text' });
  });
});
