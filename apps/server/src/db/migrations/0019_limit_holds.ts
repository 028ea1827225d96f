import type { PortableMigration } from '../migrate.js';
import { withId } from '../portable.js';

/** Limit slots a sender reserved and has not yet handed to its provider, leased like its messages (engine/limits.ts). */
export const limitHolds: PortableMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('limit_holds'), dialect)
      .addColumn('owner', 'text', (col) => col.notNull())
      .addColumn('config_id', 'bigint', (col) => col.notNull().references('provider_configs.id').onDelete('cascade'))
      .addColumn('reserved_at', 'bigint', (col) => col.notNull())
      .addColumn('count', 'integer', (col) => col.notNull())
      .addColumn('lease_until', 'bigint', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('limit_holds_owner_idx').on('limit_holds').column('owner').execute();
    await db.schema.createIndex('limit_holds_lease_idx').on('limit_holds').column('lease_until').execute();
  },
};
