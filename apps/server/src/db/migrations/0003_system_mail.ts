import type { PortableMigration } from '../migrate.js';
import { TIME, withId } from '../portable.js';

export const systemMail: PortableMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('system_outbox'), dialect)
      .addColumn('recipient', 'text', (col) => col.notNull())
      .addColumn('subject', 'text', (col) => col.notNull())
      .addColumn('text_body', 'text', (col) => col.notNull())
      .addColumn('created_at', TIME, (col) => col.notNull())
      .execute();
  },
};
