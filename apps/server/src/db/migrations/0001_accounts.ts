import type { PortableMigration } from '../migrate.js';
import { TIME, withId } from '../portable.js';

export const accounts: PortableMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('accounts'), dialect)
      .addColumn('email', 'text', (col) => col.notNull().unique())
      .addColumn('password_hash', 'text', (col) => col.notNull())
      .addColumn('time_zone_id', 'text', (col) => col.notNull())
      .addColumn('avatar', 'text', (col) => col.notNull())
      .addColumn('language', 'text')
      .addColumn('profile', 'text', (col) => col.notNull())
      .addColumn('is_admin', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('created_at', TIME, (col) => col.notNull())
      .addColumn('updated_at', TIME, (col) => col.notNull())
      .execute();

    await withId(db.schema.createTable('sessions'), dialect)
      .addColumn('account_id', 'bigint', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('token_hash', 'text', (col) => col.notNull().unique())
      .addColumn('profile', 'text', (col) => col.notNull())
      .addColumn('created_at', TIME, (col) => col.notNull())
      .addColumn('last_seen_at', TIME, (col) => col.notNull())
      .execute();
    await db.schema.createIndex('sessions_account_idx').on('sessions').column('account_id').execute();

    await withId(db.schema.createTable('login_failures'), dialect)
      .addColumn('attempt_key', 'text', (col) => col.notNull())
      .addColumn('failed_at', TIME, (col) => col.notNull())
      .execute();
    await db.schema.createIndex('login_failures_key_idx').on('login_failures').columns(['attempt_key', 'failed_at']).execute();

    await withId(db.schema.createTable('password_resets'), dialect)
      .addColumn('account_id', 'bigint', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('token_hash', 'text', (col) => col.notNull().unique())
      .addColumn('expires_at', TIME, (col) => col.notNull())
      .addColumn('used_at', TIME)
      .addColumn('created_at', TIME, (col) => col.notNull())
      .execute();
  },
};
