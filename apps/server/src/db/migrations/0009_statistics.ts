import { sql } from 'kysely';
import type { PortableMigration } from '../migrate.js';

/**
 * Statistics: the hourly rollup gains the template as a dimension (reports filter by template category),
 * rebuilt once from the ledger, and the message log gets one index per filter, each ending in
 * (created_at, id) so a filtered page is read newest first straight from the index.
 */
export const statistics: PortableMigration = {
  async up(db) {
    await db.schema
      .createTable('message_rollup_next')
      .addColumn('account_id', 'bigint', (col) => col.notNull())
      .addColumn('hour', 'integer', (col) => col.notNull())
      .addColumn('channel', 'text', (col) => col.notNull())
      .addColumn('config_id', 'bigint', (col) => col.notNull())
      .addColumn('campaign_id', 'bigint', (col) => col.notNull())
      .addColumn('template_id', 'bigint', (col) => col.notNull())
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('count', 'bigint', (col) => col.notNull())
      .addPrimaryKeyConstraint('message_rollup_key', [
        'account_id',
        'hour',
        'channel',
        'config_id',
        'campaign_id',
        'template_id',
        'status',
      ])
      .execute();
    await sql`
      insert into message_rollup_next (account_id, hour, channel, config_id, campaign_id, template_id, status, count)
      select account_id, cast(created_at / 3600000 as integer), channel, coalesce(config_id, 0), coalesce(campaign_id, 0),
             coalesce(template_id, 0), status, count(*)
      from messages
      group by account_id, cast(created_at / 3600000 as integer), channel, coalesce(config_id, 0), coalesce(campaign_id, 0),
               coalesce(template_id, 0), status`.execute(db);
    await db.schema.dropTable('message_rollup').execute();
    await sql`alter table message_rollup_next rename to message_rollup`.execute(db);
    // The campaign list reads its counts by campaign alone.
    await db.schema.createIndex('message_rollup_campaign_idx').on('message_rollup').columns(['campaign_id', 'status']).execute();
    // Reports read one channel's hour range; holding every column (count too) lets them read the index alone.
    await db.schema
      .createIndex('message_rollup_report_idx')
      .on('message_rollup')
      .columns(['account_id', 'channel', 'hour', 'status', 'config_id', 'campaign_id', 'template_id', 'count'])
      .execute();

    const logIndexes: Record<string, string[]> = {
      messages_log_idx: ['account_id', 'channel', 'created_at', 'id'],
      messages_log_status_idx: ['account_id', 'channel', 'status', 'created_at', 'id'],
      messages_log_recipient_idx: ['account_id', 'recipient', 'created_at', 'id'],
      messages_log_config_idx: ['config_id', 'created_at', 'id'],
      messages_log_campaign_idx: ['campaign_id', 'created_at', 'id'],
    };
    for (const [name, columns] of Object.entries(logIndexes)) {
      await db.schema.createIndex(name).on('messages').columns(columns).execute();
    }
  },
};
