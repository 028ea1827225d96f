import type { PortableMigration } from '../migrate.js';
import { TIME, withId } from '../portable.js';

export const feedback: PortableMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('feedback'), dialect)
      .addColumn('account_id', 'bigint', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('email', 'text', (col) => col.notNull())
      .addColumn('description', 'text', (col) => col.notNull())
      .addColumn('created_at', TIME, (col) => col.notNull())
      .execute();
    await withId(db.schema.createTable('feedback_files'), dialect)
      .addColumn('feedback_id', 'bigint', (col) => col.notNull().references('feedback.id').onDelete('cascade'))
      .addColumn('account_id', 'bigint', (col) => col.notNull())
      .addColumn('file_name', 'text', (col) => col.notNull())
      .addColumn('mime_type', 'text', (col) => col.notNull())
      .addColumn('size_bytes', 'integer', (col) => col.notNull())
      .addColumn('stored_path', 'text', (col) => col.notNull())
      .execute();
  },
};
