import { sql } from 'kysely';
import type { PortableMigration } from '../migrate.js';
import { TIME, withId } from '../portable.js';

/** Feedback from the public pages (the login screen has the button too) belongs to no account. */
export const anonymousFeedback: PortableMigration = {
  async up(db, dialect) {
    if (dialect === 'postgres') {
      await sql`alter table feedback alter column account_id drop not null`.execute(db);
      await sql`alter table feedback_files alter column account_id drop not null`.execute(db);
      return;
    }
    // SQLite cannot drop NOT NULL: both tables are rebuilt, with foreign keys off so dropping one cascades nowhere.
    await sql`pragma foreign_keys = off`.execute(db);
    try {
      await withId(db.schema.createTable('feedback_rebuilt'), dialect)
        .addColumn('account_id', 'bigint', (col) => col.references('accounts.id').onDelete('cascade'))
        .addColumn('name', 'text', (col) => col.notNull())
        .addColumn('email', 'text', (col) => col.notNull())
        .addColumn('description', 'text', (col) => col.notNull())
        .addColumn('created_at', TIME, (col) => col.notNull())
        .execute();
      await withId(db.schema.createTable('feedback_files_rebuilt'), dialect)
        .addColumn('feedback_id', 'bigint', (col) => col.notNull().references('feedback.id').onDelete('cascade'))
        .addColumn('account_id', 'bigint')
        .addColumn('file_name', 'text', (col) => col.notNull())
        .addColumn('mime_type', 'text', (col) => col.notNull())
        .addColumn('size_bytes', 'integer', (col) => col.notNull())
        .addColumn('stored_path', 'text', (col) => col.notNull())
        .execute();
      await sql`insert into feedback_rebuilt select id, account_id, name, email, description, created_at from feedback`.execute(
        db,
      );
      await sql`insert into feedback_files_rebuilt select id, feedback_id, account_id, file_name, mime_type, size_bytes, stored_path from feedback_files`.execute(
        db,
      );
      await db.schema.dropTable('feedback_files').execute();
      await db.schema.dropTable('feedback').execute();
      await db.schema.alterTable('feedback_rebuilt').renameTo('feedback').execute();
      await db.schema.alterTable('feedback_files_rebuilt').renameTo('feedback_files').execute();
    } finally {
      await sql`pragma foreign_keys = on`.execute(db);
    }
  },
};
