import { sql } from 'kysely';
import type { PortableMigration } from '../migrate.js';

/**
 * PostgreSQL checked the list of every contact an import inserted (a foreign-key trigger per row, about a fifth of
 * the server's cost per row). Herald keeps the rule itself: a transaction that adds contacts holds its list's row
 * (contacts/queries.ts holdList), and deleting a list deletes its contacts. SQLite keeps its key, as dropping it
 * would rebuild the table, and its cascade then finds nothing left to delete.
 */
export const contactsListKey: PortableMigration = {
  async up(db, dialect) {
    if (dialect === 'postgres') await sql`alter table contacts drop constraint contacts_list_id_fkey`.execute(db);
  },
};
