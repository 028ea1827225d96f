import { sql } from 'kysely';
import type { PortableMigration } from '../migrate.js';
import { TIME, withId } from '../portable.js';

export const api: PortableMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('api_keys'), dialect)
      .addColumn('account_id', 'bigint', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('scope', 'text', (col) => col.notNull())
      .addColumn('key_hash', 'text', (col) => col.notNull().unique())
      .addColumn('key_start', 'text', (col) => col.notNull())
      .addColumn('rate_limit', 'integer', (col) => col.notNull())
      .addColumn('created_at', TIME, (col) => col.notNull())
      .addColumn('last_used_at', TIME)
      .addColumn('revoked_at', TIME)
      .execute();
    await db.schema.createIndex('api_keys_account_idx').on('api_keys').columns(['account_id', 'id']).execute();

    await db.schema
      .createTable('idempotency_keys')
      .addColumn('account_id', 'bigint', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('key', 'text', (col) => col.notNull())
      .addColumn('request_hash', 'text', (col) => col.notNull())
      .addColumn('answer', 'text', (col) => col.notNull())
      .addColumn('created_at', TIME, (col) => col.notNull())
      .addPrimaryKeyConstraint('idempotency_keys_pk', ['account_id', 'key'])
      .execute();
    await db.schema.createIndex('idempotency_keys_created_idx').on('idempotency_keys').column('created_at').execute();

    await db.schema
      .createTable('webhooks')
      .addColumn('account_id', 'bigint', (col) => col.primaryKey().references('accounts.id').onDelete('cascade'))
      .addColumn('url', 'text', (col) => col.notNull())
      .addColumn('secret', 'text', (col) => col.notNull())
      .addColumn('enabled', 'integer', (col) => col.notNull())
      .addColumn('events', 'text', (col) => col.notNull())
      .addColumn('created_at', TIME, (col) => col.notNull())
      .addColumn('updated_at', TIME, (col) => col.notNull())
      .execute();

    await withId(db.schema.createTable('webhook_deliveries'), dialect)
      .addColumn('account_id', 'bigint', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('type', 'text', (col) => col.notNull())
      .addColumn('message_id', 'bigint', (col) => col.references('messages.id').onDelete('cascade'))
      .addColumn('status', 'text')
      .addColumn('previous_status', 'text')
      .addColumn('detail', 'text')
      .addColumn('at', TIME, (col) => col.notNull())
      .addColumn('state', 'text', (col) => col.notNull())
      .addColumn('attempts', 'integer', (col) => col.notNull())
      .addColumn('next_attempt_at', TIME, (col) => col.notNull())
      .addColumn('lease_until', TIME)
      .addColumn('response_code', 'integer')
      .addColumn('last_error', 'text')
      .addColumn('delivered_at', TIME)
      .execute();
    // The delivery worker reads only pending rows in due order.
    await db.schema
      .createIndex('webhook_deliveries_pending_idx')
      .on('webhook_deliveries')
      .columns(['next_attempt_at', 'id'])
      .where(sql.ref('state'), '=', 'pending')
      .execute();
    await db.schema
      .createIndex('webhook_deliveries_account_idx')
      .on('webhook_deliveries')
      .columns(['account_id', 'id'])
      .execute();

    // rate-limiter-flexible's PostgreSQL store: per-key request counts shared by every API process.
    if (dialect === 'postgres') {
      await sql`create table api_rate_limits (key varchar(255) primary key, points integer not null default 0, expire bigint)`.execute(
        db,
      );
    }
  },
};
