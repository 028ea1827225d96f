import { sql } from 'kysely';
import type { PortableMigration } from '../migrate.js';

/** The reason texts the supervisor wrote in English before it kept a message key with its figures. */
const ENGLISH_AUTO_PAUSE = /^paused automatically: (\d+) of the last (\d+) messages failed$/;

/**
 * The message log filtered by status and config reads one index range newest first: a status rare in a config
 * holding millions of messages no longer walks that config's index (or the status's rows of every other config).
 * A campaign's reason becomes a message key and parameters, shown in the reader's language.
 */
export const statisticsSpeed: PortableMigration = {
  async up(db, dialect) {
    await db.schema
      .createIndex('messages_log_config_status_idx')
      .on('messages')
      .columns(['config_id', 'status', 'created_at', 'id'])
      .execute();
    // PostgreSQL otherwise takes a config's and a status's shares as independent: a status rare in one config then
    // looks common there, and the capped count walks the status index through every other config's rows.
    if (dialect === 'postgres')
      await sql`create statistics messages_config_status_stats (mcv) on config_id, status from messages`.execute(db);

    await db.schema.alterTable('campaigns').addColumn('detail_params', 'text').execute();
    const paused = await db
      .selectFrom('campaigns')
      .select(['id', 'detail'])
      .where('detail', 'like', 'paused automatically:%')
      .execute();
    for (const campaign of paused) {
      const match = ENGLISH_AUTO_PAUSE.exec(campaign.detail ?? '');
      if (!match) continue;
      await db
        .updateTable('campaigns')
        .set({
          detail: 'campaigns.autoPaused',
          detail_params: JSON.stringify({ failed: Number(match[1]), settled: Number(match[2]) }),
        })
        .where('id', '=', campaign.id)
        .execute();
    }
  },
};
