/** All SQL of templates, their categories and the account's variables; every query is scoped to an account. */
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { TemplatesTable } from './tables.js';

export function listCategories(db: Db, accountId: number) {
  return db
    .selectFrom('template_categories')
    .leftJoin('templates', 'templates.category_id', 'template_categories.id')
    .select([
      'template_categories.id',
      'template_categories.name',
      'template_categories.created_at',
      (eb) => eb.fn.count<number>('templates.id').as('template_count'),
    ])
    .where('template_categories.account_id', '=', accountId)
    .groupBy(['template_categories.id', 'template_categories.name', 'template_categories.created_at'])
    .orderBy('template_categories.name')
    .execute();
}

export function findCategory(db: Db, accountId: number, id: number) {
  return db
    .selectFrom('template_categories')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function insertCategory(db: Db, accountId: number, name: string, now: number): Promise<number> {
  const row = await db
    .insertInto('template_categories')
    .values({ account_id: accountId, name, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function renameCategory(db: Db, accountId: number, id: number, name: string): Promise<boolean> {
  const result = await db
    .updateTable('template_categories')
    .set({ name })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteCategory(db: Db, accountId: number, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom('template_categories')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function findCurrentCategory(db: Db, accountId: number): Promise<number | null> {
  const row = await db
    .selectFrom('template_current_category')
    .select('category_id')
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row ? Number(row.category_id) : null;
}

export async function setCurrentCategory(db: Db, accountId: number, categoryId: number | null): Promise<void> {
  if (categoryId === null) {
    await db.deleteFrom('template_current_category').where('account_id', '=', accountId).execute();
    return;
  }
  await db
    .insertInto('template_current_category')
    .values({ account_id: accountId, category_id: categoryId })
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ category_id: categoryId }))
    .execute();
}

export interface TemplateFilter {
  categoryId?: number | undefined;
  channel?: string | undefined;
  /** Part of the name or subject, any case. */
  search?: string | undefined;
}

function filteredTemplates(db: Db, accountId: number, filter: TemplateFilter) {
  let query = db.selectFrom('templates').where('templates.account_id', '=', accountId);
  if (filter.categoryId !== undefined) query = query.where('templates.category_id', '=', filter.categoryId);
  if (filter.channel) query = query.where('templates.channel', '=', filter.channel);
  if (filter.search) {
    const pattern = `%${filter.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where(
      (eb) =>
        sql<boolean>`(lower(${eb.ref('templates.name')}) like ${pattern} escape '\\' or lower(${eb.ref('templates.subject')}) like ${pattern} escape '\\')`,
    );
  }
  return query;
}

/** List rows carry no bodies: a page of 5 MB templates would be heavy. */
export function listTemplates(db: Db, accountId: number, filter: TemplateFilter, limit: number, offset: number) {
  return filteredTemplates(db, accountId, filter)
    .leftJoin('template_categories', 'template_categories.id', 'templates.category_id')
    .select([
      'templates.id',
      'templates.name',
      'templates.category_id',
      'template_categories.name as category_name',
      'templates.channel',
      'templates.subject',
      (eb) => eb('templates.builder', 'is not', null).as('has_builder'),
      'templates.created_at',
      'templates.updated_at',
    ])
    .orderBy('templates.name')
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function countTemplates(db: Db, accountId: number, filter: TemplateFilter): Promise<number> {
  const row = await filteredTemplates(db, accountId, filter)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function findTemplate(db: Db, accountId: number, ref: { name: string } | { id: number }) {
  let query = db.selectFrom('templates').selectAll().where('account_id', '=', accountId);
  query = 'name' in ref ? query.where('name', '=', ref.name) : query.where('id', '=', ref.id);
  return query.executeTakeFirst();
}

export type TemplateRow = NonNullable<Awaited<ReturnType<typeof findTemplate>>>;

/** What a save writes: every column but the key, the owner and the timestamps. */
export type TemplateValues = Omit<TemplatesTable, 'id' | 'account_id' | 'created_at' | 'updated_at'>;

export async function insertTemplate(db: Db, accountId: number, values: TemplateValues, now: number): Promise<number> {
  const row = await db
    .insertInto('templates')
    .values({ ...values, account_id: accountId, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updateTemplate(db: Db, accountId: number, id: number, values: TemplateValues, now: number): Promise<void> {
  await db
    .updateTable('templates')
    .set({ ...values, updated_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .execute();
}

export async function deleteTemplate(db: Db, accountId: number, name: string): Promise<boolean> {
  const result = await db.deleteFrom('templates').where('account_id', '=', accountId).where('name', '=', name).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export function listVariables(db: Db, accountId: number) {
  return db.selectFrom('template_variables').selectAll().where('account_id', '=', accountId).orderBy('name').execute();
}

export async function variableNames(db: Db, accountId: number): Promise<Set<string>> {
  const rows = await db.selectFrom('template_variables').select('name').where('account_id', '=', accountId).execute();
  return new Set(rows.map((row) => row.name));
}

export async function variableValues(db: Db, accountId: number): Promise<Record<string, string>> {
  const rows = await db.selectFrom('template_variables').select(['name', 'value']).where('account_id', '=', accountId).execute();
  return Object.fromEntries(rows.map((row) => [row.name, row.value]));
}

export function findVariable(db: Db, accountId: number, name: string) {
  return db
    .selectFrom('template_variables')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('name', '=', name)
    .executeTakeFirst();
}

export async function insertVariable(db: Db, accountId: number, name: string, value: string, now: number): Promise<void> {
  await db
    .insertInto('template_variables')
    .values({ account_id: accountId, name, value, created_at: now, updated_at: now })
    .execute();
}

export async function updateVariable(
  db: Db,
  accountId: number,
  name: string,
  values: { name: string; value: string },
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('template_variables')
    .set({ ...values, updated_at: now })
    .where('account_id', '=', accountId)
    .where('name', '=', name)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteVariable(db: Db, accountId: number, name: string): Promise<boolean> {
  const result = await db
    .deleteFrom('template_variables')
    .where('account_id', '=', accountId)
    .where('name', '=', name)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

interface ContactRow {
  id: number | string;
  name: string | null;
  email: string | null;
  phone: string | null;
  language: string | null;
  time_zone: string | null;
  attributes: string | Record<string, unknown> | null;
}

function isMissingTable(error: unknown): boolean {
  const { code, message } = error as { code?: string; message?: string };
  return code === '42P01' || /no such table/i.test(message ?? '');
}

/**
 * One contact for a preview, in raw SQL so this domain does not depend on the contacts domain's types;
 * a database without the contacts table yet answers "not found".
 */
export async function findContact(db: Db, accountId: number, id: number): Promise<ContactRow | undefined> {
  try {
    const { rows } = await sql<ContactRow>`
      select id, name, email, phone, language, time_zone, attributes
      from contacts where account_id = ${accountId} and id = ${id}`.execute(db);
    return rows[0];
  } catch (error) {
    if (isMissingTable(error)) return undefined;
    throw error;
  }
}
