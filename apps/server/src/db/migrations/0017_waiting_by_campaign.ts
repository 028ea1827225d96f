import { sql } from 'kysely';
import type { PortableMigration } from '../migrate.js';

/**
 * The queue read waiting messages in (lane, id) order and checked each one's campaign and due time, so a paused
 * campaign's million waiting messages, or a campaign whose day limit pushed its messages to tomorrow, were walked
 * past on every claim (186 ms a claim on SQLite behind 1M paused messages, holding the write lock). Waiting
 * messages are now indexed by campaign (none for the API's), lane and due time: a claim reads only the due messages of
 * sending campaigns. The indexes by config leave out messages no config has taken yet (unsent, processing), so
 * writing them and claiming them no longer updates those indexes; every query of them names a config.
 */
export const waitingByCampaign: PortableMigration = {
  async up(db) {
    await db.schema.dropIndex('messages_waiting_idx').execute();
    await db.schema
      .createIndex('messages_due_idx')
      .on('messages')
      .columns(['campaign_id', 'lane', 'next_attempt_at', 'id'])
      .where(sql.ref('status'), 'in', ['unsent', 'resending'])
      .execute();
    const byConfig: Record<string, string[]> = {
      messages_provider_id_idx: ['config_id', 'provider_message_id'],
      messages_log_config_idx: ['config_id', 'created_at', 'id'],
      messages_log_config_status_idx: ['config_id', 'status', 'created_at', 'id'],
    };
    for (const [name, columns] of Object.entries(byConfig)) {
      await db.schema.dropIndex(name).execute();
      await db.schema.createIndex(name).on('messages').columns(columns).where(sql.ref('config_id'), 'is not', null).execute();
    }
  },
};
