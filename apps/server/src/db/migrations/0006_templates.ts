import type { PortableMigration } from '../migrate.js';
import { TIME, withId } from '../portable.js';

export const templates: PortableMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('template_categories'), dialect)
      .addColumn('account_id', 'bigint', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('created_at', TIME, (col) => col.notNull())
      .addUniqueConstraint('template_categories_account_name', ['account_id', 'name'])
      .execute();

    await withId(db.schema.createTable('templates'), dialect)
      .addColumn('account_id', 'bigint', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('category_id', 'bigint', (col) => col.references('template_categories.id').onDelete('set null'))
      .addColumn('channel', 'text', (col) => col.notNull())
      .addColumn('subject', 'text', (col) => col.notNull())
      .addColumn('html', 'text', (col) => col.notNull())
      .addColumn('text', 'text', (col) => col.notNull())
      .addColumn('text_generated', 'integer', (col) => col.notNull())
      .addColumn('sms_text', 'text', (col) => col.notNull())
      .addColumn('builder', 'text')
      .addColumn('created_at', TIME, (col) => col.notNull())
      .addColumn('updated_at', TIME, (col) => col.notNull())
      .addUniqueConstraint('templates_account_name', ['account_id', 'name'])
      .execute();
    await db.schema.createIndex('templates_category_idx').on('templates').columns(['account_id', 'category_id']).execute();

    await withId(db.schema.createTable('template_variables'), dialect)
      .addColumn('account_id', 'bigint', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('value', 'text', (col) => col.notNull())
      .addColumn('created_at', TIME, (col) => col.notNull())
      .addColumn('updated_at', TIME, (col) => col.notNull())
      .addUniqueConstraint('template_variables_account_name', ['account_id', 'name'])
      .execute();

    await db.schema
      .createTable('template_current_category')
      .addColumn('account_id', 'bigint', (col) => col.primaryKey().references('accounts.id').onDelete('cascade'))
      .addColumn('category_id', 'bigint', (col) => col.notNull().references('template_categories.id').onDelete('cascade'))
      .execute();
  },
};
