import { sql } from 'kysely';
import type { PortableMigration } from '../migrate.js';

/** A message's pending events by order: the delivery worker holds a later event back while an earlier one waits. */
export const webhookOrder: PortableMigration = {
  async up(db) {
    await db.schema
      .createIndex('webhook_deliveries_message_pending_idx')
      .on('webhook_deliveries')
      .columns(['message_id', 'id'])
      .where(sql.ref('state'), '=', 'pending')
      .execute();
  },
};
