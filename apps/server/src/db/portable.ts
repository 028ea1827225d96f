/** Column helpers so one migration reads the same on SQLite and PostgreSQL. */
import type { CreateTableBuilder } from 'kysely';
import type { Dialect } from './database.js';

/** An auto-increment integer primary key named id. */
export function withId<T extends string>(table: CreateTableBuilder<T, never>, dialect: Dialect) {
  return dialect === 'postgres'
    ? table.addColumn('id', 'bigserial', (col) => col.primaryKey())
    : table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement());
}

/** Milliseconds since the epoch are stored as bigint everywhere. */
export const TIME = 'bigint' as const;
