import { sql } from 'kysely';
import { foldForSearch } from '../../contacts/fields.js';
import type { PortableMigration } from '../migrate.js';

/** Contacts whose folded name one statement of the backfill writes. */
const BACKFILL_ROWS = 5000;

/**
 * A contact's name folded to lower case by JavaScript's Unicode rules, for case-insensitive search in any script:
 * SQLite's LIKE folds ASCII letters only, and PostgreSQL's ILIKE depends on the database's locale.
 */
export const contactsFoldedName: PortableMigration = {
  async up(db, dialect) {
    await db.schema.alterTable('contacts').addColumn('name_folded', 'text').execute();
    for (let afterId = 0; ; ) {
      const rows = await db
        .selectFrom('contacts')
        .select(['id', 'name'])
        .where('id', '>', afterId)
        .where('name', 'is not', null)
        .orderBy('id')
        .limit(BACKFILL_ROWS)
        .execute();
      if (rows.length === 0) break;
      const folded = JSON.stringify(rows.map((row) => [Number(row.id), foldForSearch(row.name as string)]));
      const elements = dialect === 'postgres' ? sql`json_array_elements(${folded}::json)` : sql`json_each(${folded})`;
      await sql`update contacts set name_folded = f.folded
        from (select cast(value ->> 0 as bigint) as id, value ->> 1 as folded from ${elements} as value) as f
        where contacts.id = f.id`.execute(db);
      afterId = Number(rows[rows.length - 1]!.id);
    }
  },
};
