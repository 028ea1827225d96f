/**
 * All SQL of contact lists, contacts and imports; every query is scoped to an account. The import's hot path
 * (staging a batch, the final merge) is raw SQL with one statement per batch of rows, so no per-row query
 * building happens at 100,000 rows/s.
 */
import {
  type Expression,
  type ExpressionBuilder,
  type Insertable,
  type RawBuilder,
  type SqlBool,
  sql,
  type Updateable,
} from 'kysely';
import type { Db, Dialect, HeldConnection } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { type CountDelta, sumCounts, zeroCounts } from './counts.js';
import { foldForSearch } from './fields.js';
import { COPY_COLUMNS } from './import/copy-rows.js';
import type { StagedBatch } from './import/reader.js';
import type { ImportsTable } from './tables.js';

/** LIKE pattern matching the term anywhere; its own wildcards are escaped with a backslash. */
function containing(term: string): string {
  return `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** Case-insensitive on PostgreSQL; SQLite's LIKE folds ASCII letters only. */
function textContains(dialect: Dialect, column: string, term: string): RawBuilder<SqlBool> {
  const operator = sql.raw(dialect === 'postgres' ? 'ilike' : 'like');
  return sql<SqlBool>`${sql.ref(column)} ${operator} ${containing(term)} escape '\\'`;
}

// Lists

const importing = (eb: ExpressionBuilder<Database, 'contact_lists'>) =>
  eb
    .exists(
      eb
        .selectFrom('imports')
        .select('imports.id')
        .whereRef('imports.list_id', '=', 'contact_lists.id')
        .where('imports.status', '=', 'running'),
    )
    .as('importing');

export function listLists(
  db: Db,
  dialect: Dialect,
  accountId: number,
  search: string | undefined,
  limit: number,
  offset: number,
) {
  let query = db.selectFrom('contact_lists').selectAll().select(importing).where('account_id', '=', accountId);
  if (search) query = query.where(textContains(dialect, 'name', search));
  return query.orderBy('id', 'desc').limit(limit).offset(offset).execute();
}

export async function countLists(db: Db, dialect: Dialect, accountId: number, search: string | undefined): Promise<number> {
  let query = db
    .selectFrom('contact_lists')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId);
  if (search) query = query.where(textContains(dialect, 'name', search));
  return Number((await query.executeTakeFirstOrThrow()).n);
}

export function findList(db: Db, accountId: number, id: number) {
  return db
    .selectFrom('contact_lists')
    .selectAll()
    .select(importing)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export type ListRow = NonNullable<Awaited<ReturnType<typeof findList>>>;

export async function insertList(
  db: Db,
  accountId: number,
  name: string,
  defaultCountry: string | null,
  now: number,
): Promise<number> {
  const row = await db
    .insertInto('contact_lists')
    .values({ account_id: accountId, name, default_country: defaultCountry, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updateList(
  db: Db,
  accountId: number,
  id: number,
  values: { name?: string; default_country?: string | null },
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('contact_lists')
    .set({ ...values, updated_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Its contacts and imports go with it. The list's row goes first: a transaction still adding contacts to the list
 * holds that row (holdList), so the delete waits for it and then finds every contact it added.
 */
export async function deleteList(db: Db, accountId: number, id: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .deleteFrom('contact_lists')
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) return false;
    await trx.deleteFrom('contacts').where('list_id', '=', id).execute();
    return true;
  });
}

/**
 * Holds the list's row for the rest of the transaction, as a foreign key from the contacts it adds would: the list
 * cannot be deleted under it (PostgreSQL; SQLite has one writer at a time). False if there is no such list.
 */
export async function holdList(db: Db, dialect: Dialect, accountId: number, listId: number): Promise<boolean> {
  let query = db.selectFrom('contact_lists').select('id').where('account_id', '=', accountId).where('id', '=', listId);
  if (dialect === 'postgres') query = query.forKeyShare();
  return (await query.executeTakeFirst()) !== undefined;
}

export async function setAttributeNames(db: Db, accountId: number, listId: number, names: string[]): Promise<void> {
  await db
    .updateTable('contact_lists')
    .set({ attribute_names: JSON.stringify(names) })
    .where('account_id', '=', accountId)
    .where('id', '=', listId)
    .execute();
}

export async function addToCounts(db: Db, accountId: number, listId: number, delta: CountDelta): Promise<void> {
  await db
    .updateTable('contact_lists')
    .set((eb) => ({
      total_count: eb('total_count', '+', delta.total),
      email_count: eb('email_count', '+', delta.email),
      phone_count: eb('phone_count', '+', delta.phone),
      unsubscribed_count: eb('unsubscribed_count', '+', delta.unsubscribed),
      bounced_count: eb('bounced_count', '+', delta.bounced),
      blocked_count: eb('blocked_count', '+', delta.blocked),
    }))
    .where('account_id', '=', accountId)
    .where('id', '=', listId)
    .execute();
}

/** A list's counts over a set of contacts: `select ${countColumns} from …`. */
const countColumns = sql`count(*) as total, count(email) as email, count(phone) as phone,
  sum(case when status = 'unsubscribed' then 1 else 0 end) as unsubscribed,
  sum(case when status = 'bounced' then 1 else 0 end) as bounced,
  sum(case when status = 'blocked' then 1 else 0 end) as blocked`;

/** The counts of a `select ${countColumns}`, where a sum over no rows is null. */
function readCounts(rows: Record<keyof CountDelta, number | null>[]): CountDelta {
  const counts = rows[0]!;
  return {
    total: Number(counts.total ?? 0),
    email: Number(counts.email ?? 0),
    phone: Number(counts.phone ?? 0),
    unsubscribed: Number(counts.unsubscribed ?? 0),
    bounced: Number(counts.bounced ?? 0),
    blocked: Number(counts.blocked ?? 0),
  };
}

/** Counts the list's contacts afresh: after an import or a bulk change, which touch too many rows to track one by one. */
export async function recountList(db: Db, accountId: number, listId: number): Promise<void> {
  const { rows } = await sql<Record<keyof CountDelta, number | null>>`select ${countColumns} from contacts
    where account_id = ${accountId} and list_id = ${listId}`.execute(db);
  const counts = readCounts(rows);
  await db
    .updateTable('contact_lists')
    .set({
      total_count: counts.total,
      email_count: counts.email,
      phone_count: counts.phone,
      unsubscribed_count: counts.unsubscribed,
      bounced_count: counts.bounced,
      blocked_count: counts.blocked,
    })
    .where('account_id', '=', accountId)
    .where('id', '=', listId)
    .execute();
}

// Contacts

export interface ContactFilter {
  search?: string | undefined;
  status?: string | undefined;
  /** Attribute name; with `value` it must equal it, without it the contact must have the attribute. */
  attribute?: string | undefined;
  value?: string | undefined;
}

function searchCondition(search: string): Expression<SqlBool> {
  const term = search.trim();
  const options: Expression<SqlBool>[] = [
    sql<SqlBool>`email like ${containing(term.toLowerCase())} escape '\\'`,
    sql<SqlBool>`name_folded like ${containing(foldForSearch(term))} escape '\\'`,
  ];
  const digits = term.replace(/\D/g, '');
  if (/^[+\d\s().-]+$/.test(term) && digits.length >= 3) options.push(sql<SqlBool>`phone like ${containing(digits)}`);
  return sql<SqlBool>`(${sql.join(options, sql` or `)})`;
}

/** The attribute's value; names are checked against ATTRIBUTE_NAME before they get here, so the JSON path is safe. */
function attributeValue(dialect: Dialect, name: string): RawBuilder<string | null> {
  return dialect === 'postgres' ? sql`(attributes::json ->> ${name})` : sql`json_extract(attributes, ${`$."${name}"`})`;
}

/** The contacts of one list of one account that pass the filter. */
function contactScope(dialect: Dialect, accountId: number, listId: number, filter: ContactFilter = {}) {
  return (eb: ExpressionBuilder<Database, 'contacts'>) => {
    const conditions: Expression<SqlBool>[] = [eb('account_id', '=', accountId), eb('list_id', '=', listId)];
    if (filter.status) conditions.push(eb('status', '=', filter.status));
    if (filter.search?.trim()) conditions.push(searchCondition(filter.search));
    if (filter.attribute) {
      const value = attributeValue(dialect, filter.attribute);
      conditions.push(filter.value === undefined ? sql<SqlBool>`${value} is not null` : sql<SqlBool>`${value} = ${filter.value}`);
    }
    return eb.and(conditions);
  };
}

/** Newest first. */
export function pageContacts(
  db: Db,
  dialect: Dialect,
  accountId: number,
  listId: number,
  filter: ContactFilter,
  limit: number,
  offset: number,
) {
  return db
    .selectFrom('contacts')
    .selectAll()
    .where(contactScope(dialect, accountId, listId, filter))
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function countContacts(
  db: Db,
  dialect: Dialect,
  accountId: number,
  listId: number,
  filter: ContactFilter,
): Promise<number> {
  const row = await db
    .selectFrom('contacts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(contactScope(dialect, accountId, listId, filter))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The next chunk after a contact id, oldest first: exports walk a list this way without holding a connection. */
export function contactsAfter(
  db: Db,
  dialect: Dialect,
  accountId: number,
  listId: number,
  filter: ContactFilter,
  afterId: number,
  limit: number,
) {
  return db
    .selectFrom('contacts')
    .selectAll()
    .where(contactScope(dialect, accountId, listId, filter))
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

export function findContact(db: Db, accountId: number, listId: number, id: number) {
  return db
    .selectFrom('contacts')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('list_id', '=', listId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export type ContactRow = NonNullable<Awaited<ReturnType<typeof findContact>>>;

/** Another contact of the list holding this e-mail or phone, if any. */
export async function findAddressOwner(
  db: Db,
  listId: number,
  column: 'email' | 'phone',
  value: string,
  exceptId: number | null,
): Promise<number | null> {
  let query = db.selectFrom('contacts').select('id').where('list_id', '=', listId).where(column, '=', value);
  if (exceptId !== null) query = query.where('id', '<>', exceptId);
  const row = await query.executeTakeFirst();
  return row ? Number(row.id) : null;
}

export interface ContactValues {
  email: string | null;
  phone: string | null;
  country: string | null;
  name: string | null;
  language: string | null;
  time_zone: string | null;
  status: string;
  attributes: string;
}

function foldedName(values: ContactValues) {
  return { name_folded: values.name === null ? null : foldForSearch(values.name) };
}

export async function insertContact(
  db: Db,
  accountId: number,
  listId: number,
  values: ContactValues,
  now: number,
): Promise<number> {
  const row = await db
    .insertInto('contacts')
    .values({ ...values, ...foldedName(values), account_id: accountId, list_id: listId, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updateContact(
  db: Db,
  accountId: number,
  listId: number,
  id: number,
  values: ContactValues,
  now: number,
): Promise<void> {
  await db
    .updateTable('contacts')
    .set({ ...values, ...foldedName(values), updated_at: now })
    .where('account_id', '=', accountId)
    .where('list_id', '=', listId)
    .where('id', '=', id)
    .execute();
}

export async function deleteContact(db: Db, accountId: number, listId: number, id: number): Promise<void> {
  await db
    .deleteFrom('contacts')
    .where('account_id', '=', accountId)
    .where('list_id', '=', listId)
    .where('id', '=', id)
    .execute();
}

/** Which contacts a bulk action reaches: the given ids, or every contact passing a filter. */
export type Selection = { ids: number[] } | { filter: ContactFilter };

function selected(dialect: Dialect, accountId: number, listId: number, selection: Selection) {
  const scope = contactScope(dialect, accountId, listId, 'filter' in selection ? selection.filter : {});
  return (eb: ExpressionBuilder<Database, 'contacts'>) =>
    'ids' in selection ? eb.and([scope(eb), eb('id', 'in', selection.ids)]) : scope(eb);
}

export async function deleteContacts(
  db: Db,
  dialect: Dialect,
  accountId: number,
  listId: number,
  selection: Selection,
): Promise<number> {
  if ('ids' in selection && selection.ids.length === 0) return 0;
  const result = await db
    .deleteFrom('contacts')
    .where(selected(dialect, accountId, listId, selection))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Only active contacts move: a bounced or blocked one keeps the stronger reason. */
export async function unsubscribeContacts(
  db: Db,
  dialect: Dialect,
  accountId: number,
  listId: number,
  selection: Selection,
  now: number,
): Promise<number> {
  if ('ids' in selection && selection.ids.length === 0) return 0;
  const result = await db
    .updateTable('contacts')
    .set({ status: 'unsubscribed', updated_at: now })
    .where(selected(dialect, accountId, listId, selection))
    .where('status', '=', 'active')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

// Imports

export async function insertImport(db: Db, values: Insertable<ImportsTable>): Promise<number> {
  const row = await db.insertInto('imports').values(values).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

export function findImport(db: Db, accountId: number, id: number) {
  return db.selectFrom('imports').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
}

export type ImportRow = NonNullable<Awaited<ReturnType<typeof findImport>>>;

export function listImports(db: Db, accountId: number, listId: number, limit: number, offset: number) {
  return db
    .selectFrom('imports')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('list_id', '=', listId)
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function countImports(db: Db, accountId: number, listId: number): Promise<number> {
  const row = await db
    .selectFrom('imports')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .where('list_id', '=', listId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function updateImport(db: Db, id: number, values: Updateable<ImportsTable>): Promise<void> {
  await db.updateTable('imports').set(values).where('id', '=', id).execute();
}

/**
 * Moves an import that is waiting, failed or cancelled to running, unless another import of the same list is
 * running; answers whether it did. The condition and the change are one statement, so two starts cannot both win.
 */
export async function claimImport(db: Db, accountId: number, id: number, values: Updateable<ImportsTable>): Promise<boolean> {
  const result = await db
    .updateTable('imports')
    .set({ ...values, status: 'running' })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'failed', 'cancelled'])
    .where('file_path', 'is not', null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('imports as other')
            .select('other.id')
            .whereRef('other.list_id', '=', 'imports.list_id')
            .where('other.status', '=', 'running'),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Writes a running import's progress and heartbeat; answers whether a cancel was asked for, or null once it is no longer running. */
export async function saveProgress(db: Db, id: number, values: Updateable<ImportsTable>): Promise<boolean | null> {
  const row = await db
    .updateTable('imports')
    .set(values)
    .where('id', '=', id)
    .where('status', '=', 'running')
    .returning('cancel_requested')
    .executeTakeFirst();
  return row ? Number(row.cancel_requested) === 1 : null;
}

export async function requestCancel(db: Db, accountId: number, id: number): Promise<boolean> {
  const result = await db
    .updateTable('imports')
    .set({ cancel_requested: 1 })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function cancelPendingImport(db: Db, accountId: number, id: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('imports')
    .set({ status: 'cancelled', finished_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Running imports whose heartbeat stopped before the given time: their process is gone. */
export function findStaleImports(db: Db, heartbeatBefore: number) {
  return db
    .selectFrom('imports')
    .select(['id', 'list_id'])
    .where('status', '=', 'running')
    .where((eb) => eb.or([eb('heartbeat_at', 'is', null), eb('heartbeat_at', '<', heartbeatBefore)]))
    .execute();
}

export async function failStaleImport(db: Db, id: number, heartbeatBefore: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('imports')
    .set({ status: 'failed', phase: null, error: 'import.interrupted', error_params: null, finished_at: now })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .where((eb) => eb.or([eb('heartbeat_at', 'is', null), eb('heartbeat_at', '<', heartbeatBefore)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Uploads never started or not finished, kept for a new start until they expire. */
export function findExpiredUploads(db: Db, createdBefore: number) {
  return db
    .selectFrom('imports')
    .select(['id', 'file_path'])
    .where('status', 'in', ['pending', 'failed', 'cancelled'])
    .where('file_path', 'is not', null)
    .where('created_at', '<', createdBefore)
    .execute();
}

// The import's staging table and merge

function stagingTable(importId: number) {
  return sql.table(`import_rows_${importId}`);
}

export async function createStagingTable(db: Db, dialect: Dialect, importId: number): Promise<void> {
  const table = stagingTable(importId);
  await sql`drop table if exists ${table}`.execute(db);
  // On SQLite the line is the rowid, so rows are stored and scanned in file order for free; PostgreSQL's unlogged table skips the WAL.
  if (dialect === 'sqlite') {
    await sql`create table ${table} (line integer primary key, email text, phone text, country text, name text,
      language text, time_zone text, status text, attributes text, name_folded text)`.execute(db);
  } else {
    await sql`create unlogged table ${table} (line bigint not null, email text collate "C", phone text collate "C",
      country text, name text, language text, time_zone text, status text, attributes text, name_folded text)`.execute(db);
  }
}

export async function dropStagingTable(db: Db, importId: number): Promise<void> {
  await sql`drop table if exists ${stagingTable(importId)}`.execute(db);
}

/**
 * After a bulk change PostgreSQL's statistics lag until autovacuum comes by, and without them it plans a list's
 * first page as a scan of the whole list; SQLite plans these queries by their indexes alone.
 */
export async function refreshStatistics(db: Db, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') await sql`analyze contacts`.execute(db);
}

/**
 * A batch as rows (line, email, phone, country, name, language, time_zone, status, attributes, name_folded) in file
 * order. Both databases parse the JSON once into their binary form, so the ten ->> do not parse it again.
 */
function batchRows(dialect: Dialect, json: string) {
  const [elements, row] =
    dialect === 'sqlite'
      ? [sql`jsonb_each(${json})`, sql.ref('value')]
      : [sql`jsonb_array_elements(${json}::jsonb) as e`, sql.ref('e')];
  const line = dialect === 'sqlite' ? sql`${row} ->> 0` : sql`cast(${row} ->> 0 as bigint)`;
  return sql`select ${line} as line, ${row} ->> 1 as email, ${row} ->> 2 as phone, ${row} ->> 3 as country,
    ${row} ->> 4 as name, ${row} ->> 5 as language, ${row} ->> 6 as time_zone, ${row} ->> 7 as status,
    ${row} ->> 8 as attributes, ${row} ->> 9 as name_folded
    from ${elements}`;
}

/** One statement per batch, reading the batch as the reader thread wrote it. */
export async function stageRows(db: Db, dialect: Dialect, importId: number, batch: StagedBatch): Promise<void> {
  if (batch.fresh !== null) await sql`insert into ${stagingTable(importId)} ${batchRows(dialect, batch.fresh)}`.execute(db);
}

export type ImportMode = 'add' | 'update' | 'replace';

export interface MergeJob {
  importId: number;
  accountId: number;
  listId: number;
  mode: ImportMode;
  now: number;
}

export interface MergeCounts {
  imported: number;
  updated: number;
  removed: number;
  duplicates: number;
}

async function affected(db: Db, query: RawBuilder<unknown>): Promise<number> {
  return Number((await query.execute(db)).numAffectedRows ?? 0);
}

async function countStaged(db: Db, importId: number): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from ${stagingTable(importId)}`.execute(db);
  return Number(rows[0]!.n);
}

/**
 * Inserts the rows whose e-mail and phone are new to the list, in file order, so of two rows of the file sharing
 * an address the first one is kept. Sorting is skipped only where each row already comes after every earlier row
 * sharing a key with it: a PostgreSQL staging table only ever appended to (rows updated in it move to its end), a
 * batch's JSON array, whose elements jsonb_array_elements returns in order, and a copied batch's repeats, which
 * go in after its fresh rows.
 */
function insertNew(job: MergeJob, rows: RawBuilder<unknown>, sorted = true) {
  return sql`insert into contacts (account_id, list_id, email, phone, country, name, name_folded, language, time_zone, status,
      attributes, created_at, updated_at)
    select cast(${job.accountId} as bigint), cast(${job.listId} as bigint), email, phone, country, name, name_folded, language,
      time_zone, coalesce(status, 'active'), coalesce(attributes, '{}'), cast(${job.now} as bigint), cast(${job.now} as bigint)
    from (${rows}) as s where true ${sorted ? sql`order by line` : sql``}
    on conflict do nothing`;
}

/**
 * Staged lines per insert statement of the final merge on SQLite, whose statements hold the event loop while
 * they run: between them the process answers other requests. On SQLite the line is the rowid, so a range of
 * lines is read in order for free.
 */
const SQLITE_MERGE_CHUNK_LINES = 50_000;

async function insertStaged(db: Db, dialect: Dialect, job: MergeJob, stagedRowsUpdated: boolean): Promise<number> {
  const table = stagingTable(job.importId);
  if (dialect === 'postgres') return affected(db, insertNew(job, sql`select * from ${table}`, stagedRowsUpdated));
  const { rows } = await sql<{ last: number | null }>`select max(line) as last from ${table}`.execute(db);
  const lastLine = Number(rows[0]?.last ?? 0);
  let imported = 0;
  for (let from = 0; from < lastLine; from += SQLITE_MERGE_CHUNK_LINES) {
    const chunk = sql`select * from ${table} where line > ${from} and line <= ${from + SQLITE_MERGE_CHUNK_LINES}`;
    imported += await affected(db, insertNew(job, chunk));
    await new Promise((resolve) => setImmediate(resolve));
  }
  return imported;
}

export async function listIsEmpty(db: Db, listId: number): Promise<boolean> {
  return !(await db.selectFrom('contacts').select('id').where('list_id', '=', listId).limit(1).executeTakeFirst());
}

/**
 * Add mode on PostgreSQL: a batch goes straight into the list, inside the import's one long transaction. Into a list
 * that was empty (`copying`, the transaction's connection) the fresh rows are copied in, the cheapest way for the
 * server (import/copy-rows.ts); a contact added to the list meanwhile then fails the copy (a unique violation).
 */
export async function insertBatch(
  db: Db,
  job: MergeJob,
  batch: StagedBatch,
  copying: HeldConnection | null,
): Promise<CountDelta> {
  // Unsorted: sorting each batch of 5,000 rows cost the server about 0.7 µs per row of the ~14 it spends on a batch.
  let added = zeroCounts;
  if (batch.fresh !== null) {
    if (copying) {
      await copying.copyFrom(`copy contacts (${COPY_COLUMNS}) from stdin`, batch.fresh);
      added = batch.freshCounts;
    } else {
      added = await countInserted(db, insertNew(job, batchRows('postgres', batch.fresh), false));
    }
  }
  if (batch.repeats !== null) {
    added = sumCounts(added, await countInserted(db, insertNew(job, batchRows('postgres', batch.repeats), false)));
  }
  return added;
}

/** How an insert moved the list's counts: a list's contacts are counted as the rows come in, not afterwards. */
async function countInserted(db: Db, insert: RawBuilder<unknown>): Promise<CountDelta> {
  const { rows } = await sql<Record<keyof CountDelta, number | null>>`with inserted as (${insert} returning email, phone, status)
    select ${countColumns} from inserted`.execute(db);
  return readCounts(rows);
}

/** The contact's attributes with the row's laid over them; a row without attributes leaves them as they are. */
function mergedAttributes(dialect: Dialect) {
  return dialect === 'postgres'
    ? sql`case when s.attributes is null then contacts.attributes else (contacts.attributes::jsonb || s.attributes::jsonb)::text end`
    : sql`case when s.attributes is null then contacts.attributes else json_patch(contacts.attributes, s.attributes) end`;
}

/** Fields the row gives replace the contact's; fields it leaves empty keep theirs. */
function updatedFields(dialect: Dialect, job: MergeJob) {
  return sql`name = coalesce(s.name, contacts.name), name_folded = coalesce(s.name_folded, contacts.name_folded),
    language = coalesce(s.language, contacts.language),
    time_zone = coalesce(s.time_zone, contacts.time_zone), status = coalesce(s.status, contacts.status),
    attributes = ${mergedAttributes(dialect)}, updated_at = cast(${job.now} as bigint)`;
}

/**
 * Update mode: each row updates the contact with its e-mail, else (having no e-mail match) the contact with its
 * phone, else becomes a new contact. In-file duplicates are removed first (the first row of each e-mail and of
 * each phone stays), so every contact is updated at most once and no statement sees two rows for one key.
 */
async function mergeUpdating(db: Db, dialect: Dialect, job: MergeJob): Promise<MergeCounts> {
  const table = stagingTable(job.importId);
  const staged = await countStaged(db, job.importId);
  await sql`create index ${sql.id(`import_rows_${job.importId}_email`)} on ${table} (email, line)`.execute(db);
  await sql`create index ${sql.id(`import_rows_${job.importId}_phone`)} on ${table} (phone, line)`.execute(db);
  let duplicates = 0;
  for (const column of ['email', 'phone'] as const) {
    const key = sql.ref(column);
    duplicates += await affected(
      db,
      sql`delete from ${table} where ${key} is not null and exists (
        select 1 from ${table} as f where f.${key} = ${table}.${key} and f.line < ${table}.line)`,
    );
  }
  const phoneIsFree = sql`s.phone is not null and not exists (
    select 1 from contacts as t where t.list_id = ${job.listId} and t.phone = s.phone)`;
  const byEmail = await affected(
    db,
    sql`update contacts set ${updatedFields(dialect, job)},
      phone = case when ${phoneIsFree} then s.phone else contacts.phone end,
      country = case when ${phoneIsFree} then s.country else contacts.country end
    from ${table} as s
    where contacts.account_id = ${job.accountId} and contacts.list_id = ${job.listId} and contacts.email = s.email`,
  );
  // A row whose e-mail names a different contact than its phone does is left to the insert, which refuses it.
  const byPhone = await affected(
    db,
    sql`update contacts set ${updatedFields(dialect, job)}, email = coalesce(contacts.email, s.email)
    from ${table} as s
    where contacts.account_id = ${job.accountId} and contacts.list_id = ${job.listId} and contacts.phone = s.phone
      and (s.email is null or contacts.email is null)
      and not exists (select 1 from contacts as m where m.list_id = ${job.listId} and m.email = s.email)
      and not exists (select 1 from ${table} as o where o.email = contacts.email)`,
  );
  const imported = await insertStaged(db, dialect, job, false);
  const updated = byEmail + byPhone;
  return { imported, updated, removed: 0, duplicates: duplicates + (staged - duplicates - updated - imported) };
}

/**
 * Replace mode: the list ends up holding exactly the file's rows. A contact that had unsubscribed, bounced or
 * been blocked and comes back in the file keeps that status unless the file sets one, so replacing a list
 * never re-subscribes anybody.
 */
async function mergeReplacing(db: Db, dialect: Dialect, job: MergeJob): Promise<MergeCounts> {
  const table = stagingTable(job.importId);
  const staged = await countStaged(db, job.importId);
  const suppressed = await db
    .selectFrom('contacts')
    .select('id')
    .where('list_id', '=', job.listId)
    .where('status', '<>', 'active')
    .limit(1)
    .executeTakeFirst();
  if (suppressed) {
    for (const column of ['email', 'phone'] as const) {
      const key = sql.ref(column);
      await sql`update ${table} set status = c.status from contacts as c
        where ${table}.status is null and c.list_id = ${job.listId} and c.status <> 'active' and c.${key} = ${table}.${key}`.execute(
        db,
      );
    }
  }
  const removed = await affected(db, sql`delete from contacts where account_id = ${job.accountId} and list_id = ${job.listId}`);
  const imported = await insertStaged(db, dialect, job, suppressed !== undefined);
  return { imported, updated: 0, removed, duplicates: staged - imported };
}

async function mergeByMode(db: Db, dialect: Dialect, job: MergeJob): Promise<MergeCounts> {
  if (job.mode === 'update') return mergeUpdating(db, dialect, job);
  if (job.mode === 'replace') return mergeReplacing(db, dialect, job);
  const staged = await countStaged(db, job.importId);
  const imported = await insertStaged(db, dialect, job, false);
  return { imported, updated: 0, removed: 0, duplicates: staged - imported };
}

/**
 * SQLite's page cache while a merge runs: the list's unique indexes take rows in random order, and with
 * better-sqlite3's 16 MB a large share of the merge went into paging them (a million rows: 7.0 s of CPU, 3 of them
 * in the kernel, against 5.4 s with 32 MB).
 */
const SQLITE_MERGE_CACHE_KB = 32 * 1024;

/** Moves the staged rows into the list; run inside the import's one final transaction. */
export async function mergeStaged(db: Db, dialect: Dialect, job: MergeJob): Promise<MergeCounts> {
  if (dialect === 'postgres') return mergeByMode(db, dialect, job);
  const { rows } = await sql<{ cache_size: number }>`pragma cache_size`.execute(db);
  const cacheSize = Number(rows[0]!.cache_size);
  await sql.raw(`pragma cache_size = ${-SQLITE_MERGE_CACHE_KB}`).execute(db);
  try {
    return await mergeByMode(db, dialect, job);
  } finally {
    await sql.raw(`pragma cache_size = ${cacheSize}`).execute(db);
  }
}
