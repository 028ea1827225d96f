/**
 * A migrated database of a bench's own, from Herald's build: a SQLite file in `dataDir`, or on PostgreSQL a fresh
 * schema (on DATABASE_URL's server) that drop() removes with everything in it.
 */

import path from 'node:path';
import pg from 'pg';
import { type DatabaseHandle, type Db, openDatabase } from '../../apps/server/dist/db/database.js';
import { migrateToLatest } from '../../apps/server/dist/db/migrate.js';

export interface ScratchDatabase {
  database: DatabaseHandle;
  /** Closes the database; on PostgreSQL drops its schema too. */
  drop(): Promise<void>;
}

const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(statement);
  await client.end();
}

export async function openScratchDatabase(
  dialect: 'sqlite' | 'postgres',
  dataDir: string,
  name: string,
): Promise<ScratchDatabase> {
  const schema = `bench_${name}_${process.pid}`;
  if (dialect === 'postgres') await admin(`create schema ${schema}`);
  const database =
    dialect === 'sqlite'
      ? openDatabase({ sqliteFile: path.join(dataDir, 'herald.db') })
      : openDatabase({ databaseUrl, pgSchema: schema });
  await migrateToLatest(database);
  return {
    database,
    drop: async () => {
      await database.close();
      if (dialect === 'postgres') await admin(`drop schema ${schema} cascade`);
    },
  };
}

/** The account a bench's data belongs to; answers its id. */
export async function insertBenchAccount(
  db: Db,
  now: number,
  fields: { time_zone_id?: string; avatar?: string; language?: string } = {},
): Promise<number> {
  const account = await db
    .insertInto('accounts')
    .values({
      email: 'bench@example.com',
      password_hash: 'not used',
      time_zone_id: fields.time_zone_id ?? '001',
      avatar: fields.avatar ?? '',
      language: fields.language ?? null,
      profile: 'site',
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(account.id);
}
