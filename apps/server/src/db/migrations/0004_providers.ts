import type { PortableMigration } from '../migrate.js';
import { TIME, withId } from '../portable.js';

export const providers: PortableMigration = {
  async up(db, dialect) {
    await db.schema.alterTable('accounts').addColumn('bounce_address', 'text').execute();

    await withId(db.schema.createTable('provider_configs'), dialect)
      .addColumn('account_id', 'bigint', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('type', 'text', (col) => col.notNull())
      .addColumn('category', 'text', (col) => col.notNull())
      .addColumn('active', 'integer', (col) => col.notNull().defaultTo(1))
      .addColumn('settings', 'text', (col) => col.notNull())
      .addColumn('secrets', 'text', (col) => col.notNull())
      .addColumn('limit_per_day', 'integer')
      .addColumn('limit_per_month', 'integer')
      .addColumn('filter', 'text', (col) => col.notNull())
      .addColumn('created_at', TIME, (col) => col.notNull())
      .addColumn('updated_at', TIME, (col) => col.notNull())
      .addUniqueConstraint('provider_configs_account_name', ['account_id', 'name'])
      .execute();

    await db.schema
      .createTable('provider_balances')
      .addColumn('config_id', 'bigint', (col) => col.primaryKey().references('provider_configs.id').onDelete('cascade'))
      .addColumn('account_id', 'bigint', (col) => col.notNull())
      .addColumn('amount', 'text')
      .addColumn('currency', 'text')
      .addColumn('error', 'text')
      .addColumn('checked_at', TIME, (col) => col.notNull())
      .execute();

    await withId(db.schema.createTable('provider_groups'), dialect)
      .addColumn('account_id', 'bigint', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('category', 'text', (col) => col.notNull())
      .addColumn('created_at', TIME, (col) => col.notNull())
      .addColumn('updated_at', TIME, (col) => col.notNull())
      .addUniqueConstraint('provider_groups_account_name', ['account_id', 'name'])
      .execute();

    await db.schema
      .createTable('provider_group_configs')
      .addColumn('group_id', 'bigint', (col) => col.notNull().references('provider_groups.id').onDelete('cascade'))
      .addColumn('config_id', 'bigint', (col) => col.notNull().references('provider_configs.id').onDelete('cascade'))
      .addColumn('priority', 'integer', (col) => col.notNull())
      .addPrimaryKeyConstraint('provider_group_configs_pk', ['group_id', 'config_id'])
      .execute();

    await db.schema
      .createTable('user_provider_options')
      .addColumn('account_id', 'bigint', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('category', 'text', (col) => col.notNull())
      .addColumn('config_id', 'bigint', (col) => col.notNull().references('provider_configs.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('user_provider_options_pk', ['account_id', 'category'])
      .execute();

    await withId(db.schema.createTable('sandbox_messages'), dialect)
      .addColumn('account_id', 'bigint', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('config_id', 'bigint', (col) => col.notNull())
      .addColumn('category', 'text', (col) => col.notNull())
      .addColumn('recipient', 'text', (col) => col.notNull())
      .addColumn('subject', 'text')
      .addColumn('body', 'text', (col) => col.notNull())
      .addColumn('provider_message_id', 'text', (col) => col.notNull())
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('created_at', TIME, (col) => col.notNull())
      .execute();
    await db.schema.createIndex('sandbox_messages_account_idx').on('sandbox_messages').columns(['account_id', 'id']).execute();
  },
};
