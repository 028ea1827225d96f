import type { PortableMigration } from '../migrate.js';

/** A paced config's schedule, shared by the processes and engine threads that send through it without Redis. */
export const configPace: PortableMigration = {
  async up(db) {
    await db.schema
      .createTable('config_pace')
      .addColumn('config_id', 'bigint', (col) => col.primaryKey().references('provider_configs.id').onDelete('cascade'))
      .addColumn('booked', 'bigint', (col) => col.notNull())
      .execute();
  },
};
