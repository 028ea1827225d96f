import { sql } from 'kysely';
import type { PortableMigration } from '../migrate.js';

/**
 * A rollup per UTC day beside the hourly one, kept in the same transaction: a report reads one row per UTC day and
 * bucket, and hourly rows only for the hours at the edges of the account's local days.
 */
export const dailyRollup: PortableMigration = {
  async up(db) {
    await db.schema
      .createTable('message_rollup_daily')
      .addColumn('account_id', 'bigint', (col) => col.notNull())
      .addColumn('day', 'integer', (col) => col.notNull())
      .addColumn('channel', 'text', (col) => col.notNull())
      .addColumn('config_id', 'bigint', (col) => col.notNull())
      .addColumn('campaign_id', 'bigint', (col) => col.notNull())
      .addColumn('template_id', 'bigint', (col) => col.notNull())
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('count', 'bigint', (col) => col.notNull())
      .addPrimaryKeyConstraint('message_rollup_daily_key', [
        'account_id',
        'day',
        'channel',
        'config_id',
        'campaign_id',
        'template_id',
        'status',
      ])
      .execute();
    await sql`
      insert into message_rollup_daily (account_id, day, channel, config_id, campaign_id, template_id, status, count)
      select account_id, hour / 24, channel, config_id, campaign_id, template_id, status, sum(count)
      from message_rollup
      group by account_id, hour / 24, channel, config_id, campaign_id, template_id, status`.execute(db);
    // Reports read one channel's day range; holding every column (count too) lets them read the index alone.
    await db.schema
      .createIndex('message_rollup_daily_report_idx')
      .on('message_rollup_daily')
      .columns(['account_id', 'channel', 'day', 'status', 'config_id', 'campaign_id', 'template_id', 'count'])
      .execute();
  },
};
