import { sql } from 'kysely';
import type { PortableMigration } from '../migrate.js';
import { TIME, withId } from '../portable.js';

export const contacts: PortableMigration = {
  async up(db, dialect) {
    // Byte order on PostgreSQL whatever the database's locale: faster unique checks, and prefix ranges stay index scans.
    const keyText = dialect === 'postgres' ? sql`text collate "C"` : sql`text`;

    await withId(db.schema.createTable('contact_lists'), dialect)
      .addColumn('account_id', 'bigint', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('default_country', 'text')
      .addColumn('attribute_names', 'text', (col) => col.notNull().defaultTo('[]'))
      .addColumn('total_count', 'bigint', (col) => col.notNull().defaultTo(0))
      .addColumn('email_count', 'bigint', (col) => col.notNull().defaultTo(0))
      .addColumn('phone_count', 'bigint', (col) => col.notNull().defaultTo(0))
      .addColumn('unsubscribed_count', 'bigint', (col) => col.notNull().defaultTo(0))
      .addColumn('bounced_count', 'bigint', (col) => col.notNull().defaultTo(0))
      .addColumn('blocked_count', 'bigint', (col) => col.notNull().defaultTo(0))
      .addColumn('created_at', TIME, (col) => col.notNull())
      .addColumn('updated_at', TIME, (col) => col.notNull())
      .addUniqueConstraint('contact_lists_account_name', ['account_id', 'name'])
      .execute();

    await withId(db.schema.createTable('contacts'), dialect)
      .addColumn('account_id', 'bigint', (col) => col.notNull())
      .addColumn('list_id', 'bigint', (col) => col.notNull().references('contact_lists.id').onDelete('cascade'))
      .addColumn('email', keyText)
      .addColumn('phone', keyText)
      .addColumn('country', 'text')
      .addColumn('name', 'text')
      .addColumn('language', 'text')
      .addColumn('time_zone', 'text')
      .addColumn('status', 'text', (col) => col.notNull().defaultTo('active'))
      .addColumn('attributes', 'text', (col) => col.notNull().defaultTo('{}'))
      .addColumn('created_at', TIME, (col) => col.notNull())
      .addColumn('updated_at', TIME, (col) => col.notNull())
      .addUniqueConstraint('contacts_list_email', ['list_id', 'email'])
      .addUniqueConstraint('contacts_list_phone', ['list_id', 'phone'])
      .execute();
    await db.schema.createIndex('contacts_list_idx').on('contacts').columns(['list_id', 'id']).execute();

    await withId(db.schema.createTable('imports'), dialect)
      .addColumn('account_id', 'bigint', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('list_id', 'bigint', (col) => col.notNull().references('contact_lists.id').onDelete('cascade'))
      .addColumn('file_name', 'text', (col) => col.notNull())
      .addColumn('size_bytes', 'bigint', (col) => col.notNull())
      .addColumn('file_path', 'text')
      .addColumn('encoding', 'text', (col) => col.notNull())
      .addColumn('separator', 'text')
      .addColumn('has_header', 'integer', (col) => col.notNull())
      .addColumn('preview', 'text', (col) => col.notNull())
      .addColumn('mapping', 'text')
      .addColumn('mode', 'text')
      .addColumn('default_country', 'text')
      .addColumn('language', 'text', (col) => col.notNull())
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('phase', 'text')
      .addColumn('cancel_requested', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('rows_done', 'bigint', (col) => col.notNull().defaultTo(0))
      .addColumn('rows_total', 'bigint', (col) => col.notNull().defaultTo(0))
      .addColumn('imported', 'bigint', (col) => col.notNull().defaultTo(0))
      .addColumn('updated', 'bigint', (col) => col.notNull().defaultTo(0))
      .addColumn('removed', 'bigint', (col) => col.notNull().defaultTo(0))
      .addColumn('duplicates', 'bigint', (col) => col.notNull().defaultTo(0))
      .addColumn('invalid', 'bigint', (col) => col.notNull().defaultTo(0))
      .addColumn('invalid_sample', 'text', (col) => col.notNull().defaultTo('[]'))
      .addColumn('report_path', 'text')
      .addColumn('error', 'text')
      .addColumn('error_params', 'text')
      .addColumn('created_at', TIME, (col) => col.notNull())
      .addColumn('started_at', TIME)
      .addColumn('finished_at', TIME)
      .addColumn('heartbeat_at', TIME)
      .execute();
    await db.schema.createIndex('imports_list_idx').on('imports').columns(['account_id', 'list_id', 'id']).execute();
    await db.schema.createIndex('imports_status_idx').on('imports').column('status').execute();
  },
};
