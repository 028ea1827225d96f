import { sql } from 'kysely';
import type { PortableMigration } from '../migrate.js';
import { TIME, withId } from '../portable.js';

/** Slack notification settings and their delivery queue, single sign-on logins in flight, a display name. */
export const settings: PortableMigration = {
  async up(db, dialect) {
    await db.schema.alterTable('accounts').addColumn('display_name', 'text').execute();

    await db.schema
      .createTable('hook_settings')
      .addColumn('account_id', 'bigint', (col) => col.primaryKey().references('accounts.id').onDelete('cascade'))
      .addColumn('slack_url', 'text')
      .addColumn('sender_name', 'text', (col) => col.notNull())
      .addColumn('events', 'text', (col) => col.notNull())
      .addColumn('balance_threshold', 'double precision')
      .addColumn('updated_at', TIME, (col) => col.notNull())
      .execute();

    await withId(db.schema.createTable('hook_deliveries'), dialect)
      .addColumn('account_id', 'bigint', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('event', 'text', (col) => col.notNull())
      .addColumn('dedupe_key', 'text')
      .addColumn('payload', 'text', (col) => col.notNull())
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('next_attempt_at', TIME, (col) => col.notNull())
      .addColumn('lease_until', TIME)
      .addColumn('response_status', 'integer')
      .addColumn('last_error', 'text')
      .addColumn('created_at', TIME, (col) => col.notNull())
      .addColumn('finished_at', TIME)
      .execute();
    // One notification per event occurrence (a campaign, a config's day), however many processes see it.
    await db.schema
      .createIndex('hook_deliveries_dedupe_idx')
      .on('hook_deliveries')
      .columns(['account_id', 'dedupe_key'])
      .unique()
      .execute();
    await db.schema
      .createIndex('hook_deliveries_due_idx')
      .on('hook_deliveries')
      .column('next_attempt_at')
      .where(sql.ref('status'), '=', 'pending')
      .execute();
    await db.schema.createIndex('hook_deliveries_account_idx').on('hook_deliveries').columns(['account_id', 'id']).execute();

    await withId(db.schema.createTable('sso_logins'), dialect)
      .addColumn('state_hash', 'text', (col) => col.notNull().unique())
      .addColumn('code_verifier', 'text', (col) => col.notNull())
      .addColumn('nonce', 'text', (col) => col.notNull())
      .addColumn('redirect', 'text', (col) => col.notNull())
      .addColumn('expires_at', TIME, (col) => col.notNull())
      .execute();
  },
};
