/** Runs the numbered migrations in ./migrations at start; both databases share one set. */
import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { DatabaseHandle, Dialect } from './database.js';
import { migrations } from './migrations/index.js';

export type PortableMigration = {
  up(db: Kysely<any>, dialect: Dialect): Promise<void>;
};

export async function migrateToLatest(handle: DatabaseHandle): Promise<void> {
  const provider: MigrationProvider = {
    async getMigrations() {
      const wrapped: Record<string, Migration> = {};
      for (const [name, migration] of Object.entries(migrations)) {
        wrapped[name] = { up: (db) => migration.up(db, handle.dialect) };
      }
      return wrapped;
    },
  };
  const { error, results } = await new Migrator({
    db: handle.db,
    provider,
    ...(handle.schema ? { migrationTableSchema: handle.schema } : {}),
  }).migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (failed) throw new Error(`migration ${failed.migrationName} failed: ${String(error)}`);
  if (error) {
    const where = handle.dialect === 'postgres' ? 'the PostgreSQL database of DATABASE_URL' : 'the SQLite file in DATA_DIR';
    throw new Error(`cannot migrate ${where}: ${String(error)}`);
  }
}
