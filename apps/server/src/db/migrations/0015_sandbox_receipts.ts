import type { PortableMigration } from '../migrate.js';

/** A sandbox receipt finds its message by provider id; without an index every receipt read the whole inbox. */
export const sandboxReceipts: PortableMigration = {
  async up(db) {
    await db.schema
      .createIndex('sandbox_messages_provider_id_idx')
      .on('sandbox_messages')
      .column('provider_message_id')
      .execute();
  },
};
