import type { PortableMigration } from '../migrate.js';

/** A campaign's fallback to the other channel (a template of that channel and where to send), and its unread window. */
export const campaignFallback: PortableMigration = {
  async up(db) {
    await db.schema.alterTable('campaigns').addColumn('fallback_template_id', 'bigint').execute();
    await db.schema.alterTable('campaigns').addColumn('fallback_group_id', 'bigint').execute();
    await db.schema.alterTable('campaigns').addColumn('fallback_config_id', 'bigint').execute();
    await db.schema
      .alterTable('campaigns')
      .addColumn('unread_after_hours', 'integer', (col) => col.notNull().defaultTo(72))
      .execute();
    // Set once the campaign's unsettled e-mail has been marked unread, so the supervisor does it once.
    await db.schema.alterTable('campaigns').addColumn('unread_marked_at', 'bigint').execute();
  },
};
