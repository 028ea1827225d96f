import { sql } from 'kysely';
import type { PortableMigration } from '../migrate.js';
import { TIME, withId } from '../portable.js';

export const sending: PortableMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('campaigns'), dialect)
      .addColumn('account_id', 'bigint', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('channel', 'text', (col) => col.notNull())
      .addColumn('state', 'text', (col) => col.notNull())
      .addColumn('list_id', 'bigint')
      .addColumn('template_id', 'bigint')
      .addColumn('group_id', 'bigint')
      .addColumn('config_id', 'bigint')
      .addColumn('scheduled_at', TIME)
      .addColumn('started_at', TIME)
      .addColumn('finished_at', TIME)
      .addColumn('total', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('suppressed', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('materialized_to', 'bigint', (col) => col.notNull().defaultTo(0))
      .addColumn('materialized', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('detail', 'text')
      .addColumn('created_at', TIME, (col) => col.notNull())
      .addColumn('updated_at', TIME, (col) => col.notNull())
      .execute();
    await db.schema.createIndex('campaigns_account_idx').on('campaigns').columns(['account_id', 'id']).execute();
    await db.schema.createIndex('campaigns_state_idx').on('campaigns').column('state').execute();

    await withId(db.schema.createTable('messages'), dialect)
      .addColumn('account_id', 'bigint', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('campaign_id', 'bigint', (col) => col.references('campaigns.id').onDelete('cascade'))
      .addColumn('lane', 'integer', (col) => col.notNull())
      .addColumn('channel', 'text', (col) => col.notNull())
      .addColumn('recipient', 'text', (col) => col.notNull())
      .addColumn('contact_id', 'bigint')
      .addColumn('template_id', 'bigint')
      .addColumn('payload', 'text')
      .addColumn('route_group_id', 'bigint')
      .addColumn('route_config_id', 'bigint')
      .addColumn('config_id', 'bigint')
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('next_attempt_at', TIME, (col) => col.notNull())
      .addColumn('lease_until', TIME)
      .addColumn('lease_owner', 'text')
      .addColumn('provider_message_id', 'text')
      .addColumn('detail', 'text')
      .addColumn('locale', 'text')
      .addColumn('created_at', TIME, (col) => col.notNull())
      .addColumn('updated_at', TIME, (col) => col.notNull())
      .execute();
    // The queue reads only waiting messages, in lane then id order.
    await db.schema
      .createIndex('messages_waiting_idx')
      .on('messages')
      .columns(['lane', 'id'])
      .where(sql.ref('status'), 'in', ['unsent', 'resending'])
      .execute();
    await db.schema
      .createIndex('messages_leased_idx')
      .on('messages')
      .column('lease_until')
      .where(sql.ref('status'), '=', 'processing')
      .execute();
    await db.schema
      .createIndex('messages_provider_id_idx')
      .on('messages')
      .columns(['config_id', 'provider_message_id'])
      .execute();
    await db.schema.createIndex('messages_campaign_idx').on('messages').columns(['campaign_id', 'status']).execute();
    await db.schema.createIndex('messages_account_idx').on('messages').columns(['account_id', 'created_at']).execute();

    await withId(db.schema.createTable('message_events'), dialect)
      .addColumn('message_id', 'bigint', (col) => col.notNull().references('messages.id').onDelete('cascade'))
      .addColumn('account_id', 'bigint', (col) => col.notNull())
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('config_id', 'bigint')
      .addColumn('detail', 'text')
      .addColumn('at', TIME, (col) => col.notNull())
      .execute();
    await db.schema.createIndex('message_events_message_idx').on('message_events').columns(['message_id', 'id']).execute();

    await db.schema
      .createTable('message_rollup')
      .addColumn('account_id', 'bigint', (col) => col.notNull())
      .addColumn('hour', 'integer', (col) => col.notNull())
      .addColumn('channel', 'text', (col) => col.notNull())
      .addColumn('config_id', 'bigint', (col) => col.notNull())
      .addColumn('campaign_id', 'bigint', (col) => col.notNull())
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('count', 'bigint', (col) => col.notNull())
      .addPrimaryKeyConstraint('message_rollup_pk', ['account_id', 'hour', 'channel', 'config_id', 'campaign_id', 'status'])
      .execute();

    await db.schema
      .createTable('config_usage')
      .addColumn('config_id', 'bigint', (col) => col.notNull().references('provider_configs.id').onDelete('cascade'))
      .addColumn('period', 'text', (col) => col.notNull())
      .addColumn('count', 'integer', (col) => col.notNull())
      .addPrimaryKeyConstraint('config_usage_pk', ['config_id', 'period'])
      .execute();
  },
};
