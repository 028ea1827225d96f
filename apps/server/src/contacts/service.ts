/** Contact lists and their contacts: counts, pages, edits, bulk actions and the CSV export. */
import type { ContactStatus, RuleFailure } from '@herald/shared';
import { type Db, type Dialect, isUniqueViolation } from '../db/database.js';
import { AppError, type FieldFailure, invalidField, invalidFields, notFound } from '../http/errors.js';
import { type CountDelta, countsOf } from './counts.js';
import { csvLine, UTF8_BOM } from './csv.js';
import {
  ATTRIBUTE_NAME,
  INVALID,
  type Invalid,
  isCountryCode,
  MAX_ATTRIBUTE_LENGTH,
  MAX_ATTRIBUTES,
  MAX_NAME_LENGTH,
  normaliseEmail,
  normaliseLanguage,
  normalisePhone,
  normaliseStatus,
  normaliseTimeZone,
} from './fields.js';
import * as q from './queries.js';

export interface ContactsDeps {
  db: Db;
  dialect: Dialect;
}

const MAX_LIST_NAME_LENGTH = 120;
/** Contacts per query while an export walks a list. */
const EXPORT_CHUNK = 5000;

function presentList(row: q.ListRow) {
  return {
    id: Number(row.id),
    name: row.name,
    defaultCountry: row.default_country,
    attributeNames: JSON.parse(row.attribute_names) as string[],
    state: row.importing ? ('importing' as const) : ('ready' as const),
    counts: {
      total: Number(row.total_count),
      withEmail: Number(row.email_count),
      withPhone: Number(row.phone_count),
      active: Number(row.total_count) - Number(row.unsubscribed_count) - Number(row.bounced_count) - Number(row.blocked_count),
      unsubscribed: Number(row.unsubscribed_count),
      bounced: Number(row.bounced_count),
      blocked: Number(row.blocked_count),
    },
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function presentContact(row: q.ContactRow) {
  return {
    id: Number(row.id),
    listId: Number(row.list_id),
    email: row.email,
    phone: row.phone,
    country: row.country,
    name: row.name,
    language: row.language,
    timeZone: row.time_zone,
    status: row.status,
    attributes: JSON.parse(row.attributes) as Record<string, string>,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

async function listOf(deps: ContactsDeps, accountId: number, id: number): Promise<q.ListRow> {
  const row = await q.findList(deps.db, accountId, id);
  if (!row) throw notFound();
  return row;
}

export async function listLists(deps: ContactsDeps, accountId: number, page: number, size: number, search?: string) {
  const [rows, total] = await Promise.all([
    q.listLists(deps.db, deps.dialect, accountId, search, size, (page - 1) * size),
    q.countLists(deps.db, deps.dialect, accountId, search),
  ]);
  return { total, items: rows.map(presentList) };
}

export async function getList(deps: ContactsDeps, accountId: number, id: number) {
  return presentList(await listOf(deps, accountId, id));
}

export interface ListInput {
  name: string;
  defaultCountry?: string | null | undefined;
}

function checkList(input: ListInput): { name: string; defaultCountry: string | null | undefined } {
  const name = input.name.trim();
  const failures: FieldFailure[] = [];
  if (!name) failures.push({ field: 'name', key: 'validation.mandatory' });
  else if (name.length > MAX_LIST_NAME_LENGTH)
    failures.push({ field: 'name', key: 'validation.tooLong', params: { n: MAX_LIST_NAME_LENGTH } });
  if (input.defaultCountry && !isCountryCode(input.defaultCountry))
    failures.push({ field: 'defaultCountry', key: 'validation.unknownCountry' });
  if (failures.length > 0) throw invalidFields(failures);
  return { name, defaultCountry: input.defaultCountry };
}

function nameTaken(error: unknown): never {
  if (isUniqueViolation(error)) throw invalidField('name', { key: 'validation.nameExists' });
  throw error;
}

export async function createList(deps: ContactsDeps, accountId: number, input: ListInput) {
  const { name, defaultCountry } = checkList(input);
  const id = await q.insertList(deps.db, accountId, name, defaultCountry ?? null, Date.now()).catch(nameTaken);
  return getList(deps, accountId, id);
}

/** A country left out of the body stays as it was. */
export async function updateList(deps: ContactsDeps, accountId: number, id: number, input: ListInput) {
  const { name, defaultCountry } = checkList(input);
  const values = defaultCountry === undefined ? { name } : { name, default_country: defaultCountry };
  const updated = await q.updateList(deps.db, accountId, id, values, Date.now()).catch(nameTaken);
  if (!updated) throw notFound();
  return getList(deps, accountId, id);
}

export async function deleteList(deps: ContactsDeps, accountId: number, id: number): Promise<void> {
  const list = await listOf(deps, accountId, id);
  if (list.importing) throw new AppError(409, 'contacts.listBusy');
  await q.deleteList(deps.db, accountId, id);
}

function isEmptyFilter(filter: q.ContactFilter): boolean {
  return !filter.search?.trim() && !filter.attribute;
}

/** The list's kept counts answer a total without a search or attribute filter; anything else is counted. */
function countedTotal(list: q.ListRow, status: string | undefined): number {
  const counts = presentList(list).counts;
  return status ? counts[status as ContactStatus] : counts.total;
}

export async function pageContacts(
  deps: ContactsDeps,
  accountId: number,
  listId: number,
  filter: q.ContactFilter,
  page: number,
  size: number,
) {
  const list = await listOf(deps, accountId, listId);
  const [rows, total] = await Promise.all([
    q.pageContacts(deps.db, deps.dialect, accountId, listId, filter, size, (page - 1) * size),
    isEmptyFilter(filter)
      ? Promise.resolve(countedTotal(list, filter.status))
      : q.countContacts(deps.db, deps.dialect, accountId, listId, filter),
  ]);
  return { total, items: rows.map(presentContact) };
}

async function contactOf(deps: ContactsDeps, accountId: number, listId: number, id: number): Promise<q.ContactRow> {
  const row = await q.findContact(deps.db, accountId, listId, id);
  if (!row) throw notFound();
  return row;
}

export async function getContact(deps: ContactsDeps, accountId: number, listId: number, id: number) {
  await listOf(deps, accountId, listId);
  return presentContact(await contactOf(deps, accountId, listId, id));
}

export interface ContactInput {
  email?: string | null | undefined;
  phone?: string | null | undefined;
  name?: string | null | undefined;
  language?: string | null | undefined;
  timeZone?: string | null | undefined;
  status?: string | undefined;
  attributes?: Record<string, string | number | boolean | null> | undefined;
}

function checkAttributes(attributes: ContactInput['attributes'], failures: FieldFailure[]): Record<string, string> {
  const checked: Record<string, string> = {};
  const entries = Object.entries(attributes ?? {});
  if (entries.length > MAX_ATTRIBUTES)
    failures.push({ field: 'attributes', key: 'validation.outOfRange', params: { min: 0, max: MAX_ATTRIBUTES } });
  for (const [name, raw] of entries) {
    const value = raw === null ? '' : String(raw).trim();
    if (!ATTRIBUTE_NAME.test(name)) failures.push({ field: `attributes.${name}`, key: 'validation.invalidAttributeName' });
    else if (value.length > MAX_ATTRIBUTE_LENGTH)
      failures.push({ field: `attributes.${name}`, key: 'validation.tooLong', params: { n: MAX_ATTRIBUTE_LENGTH } });
    else if (value) checked[name] = value;
  }
  return checked;
}

/** A form's values by the same rules an import applies; every broken rule is reported at once. */
function checkContact(input: ContactInput, defaultCountry: string | null, currentStatus: string | null): q.ContactValues {
  const failures: FieldFailure[] = [];
  const rule = <T>(field: string, value: T | Invalid, failure: RuleFailure): T | null => {
    if (value === INVALID) {
      failures.push({ field, ...failure });
      return null;
    }
    return value;
  };
  const email = rule('email', normaliseEmail(input.email ?? ''), { key: 'validation.invalidEmail' });
  const phone = rule('phone', normalisePhone(input.phone ?? '', defaultCountry), { key: 'validation.invalidPhone' });
  const language = rule('language', normaliseLanguage(input.language ?? ''), { key: 'validation.unknownLanguage' });
  const timeZone = rule('timeZone', normaliseTimeZone(input.timeZone ?? ''), { key: 'validation.unknownTimeZone' });
  const status = rule('status', normaliseStatus(input.status ?? ''), { key: 'validation.notInList' });
  const name = input.name?.trim() ?? '';
  if (name.length > MAX_NAME_LENGTH) failures.push({ field: 'name', key: 'validation.tooLong', params: { n: MAX_NAME_LENGTH } });
  const attributes = checkAttributes(input.attributes, failures);
  if (!input.email?.trim() && !input.phone?.trim()) failures.push({ field: 'email', key: 'contacts.noAddress' });
  if (failures.length > 0) throw invalidFields(failures);
  return {
    email,
    phone: phone?.e164 ?? null,
    country: phone?.country ?? null,
    name: name || null,
    language,
    time_zone: timeZone,
    status: status ?? currentStatus ?? 'active',
    attributes: JSON.stringify(attributes),
  };
}

/** Names the field whose address another contact of the list already holds. */
async function checkAddressesFree(
  deps: ContactsDeps,
  listId: number,
  values: q.ContactValues,
  exceptId: number | null,
): Promise<void> {
  const failures: FieldFailure[] = [];
  if (values.email && (await q.findAddressOwner(deps.db, listId, 'email', values.email, exceptId)) !== null)
    failures.push({ field: 'email', key: 'contacts.emailExists' });
  if (values.phone && (await q.findAddressOwner(deps.db, listId, 'phone', values.phone, exceptId)) !== null)
    failures.push({ field: 'phone', key: 'contacts.phoneExists' });
  if (failures.length > 0) throw invalidFields(failures);
}

/** A write that lost a race for an address to another one reads like the check above. */
function addressTaken(error: unknown): never {
  if (!isUniqueViolation(error)) throw error;
  const detail = `${(error as { constraint?: string }).constraint ?? ''} ${(error as Error).message}`;
  throw invalidField(detail.includes('email') ? 'email' : 'phone', {
    key: detail.includes('email') ? 'contacts.emailExists' : 'contacts.phoneExists',
  });
}

function countDelta(before: q.ContactRow | null, after: q.ContactValues | null): CountDelta {
  const [from, to] = [countsOf(before), countsOf(after)];
  return {
    total: to.total - from.total,
    email: to.email - from.email,
    phone: to.phone - from.phone,
    unsubscribed: to.unsubscribed - from.unsubscribed,
    bounced: to.bounced - from.bounced,
    blocked: to.blocked - from.blocked,
  };
}

/** New attribute names join the list's, so exports and templates know them. */
async function rememberAttributeNames(db: Db, list: q.ListRow, values: q.ContactValues): Promise<void> {
  const known = JSON.parse(list.attribute_names) as string[];
  const added = Object.keys(JSON.parse(values.attributes)).filter((name) => !known.includes(name));
  if (added.length > 0) await q.setAttributeNames(db, Number(list.account_id), Number(list.id), [...known, ...added]);
}

export async function createContact(deps: ContactsDeps, accountId: number, listId: number, input: ContactInput) {
  const list = await listOf(deps, accountId, listId);
  const values = checkContact(input, list.default_country, null);
  await checkAddressesFree(deps, listId, values, null);
  const id = await deps.db
    .transaction()
    .execute(async (trx) => {
      if (!(await q.holdList(trx, deps.dialect, accountId, listId))) throw notFound();
      const inserted = await q.insertContact(trx, accountId, listId, values, Date.now());
      await q.addToCounts(trx, accountId, listId, countDelta(null, values));
      await rememberAttributeNames(trx, list, values);
      return inserted;
    })
    .catch(addressTaken);
  return presentContact(await contactOf(deps, accountId, listId, id));
}

/** A first start's audience: the admin and two made-up readers, so a campaign can go through the sandbox at once. */
export async function seedSampleList(deps: ContactsDeps, accountId: number, adminEmail: string): Promise<void> {
  const list = await createList(deps, accountId, { name: 'Sample list' });
  const readers: ContactInput[] = [
    { email: adminEmail, name: 'You', phone: '+380501110001', attributes: { city: 'Kyiv' } },
    { email: 'anna@example.com', name: 'Anna', phone: '+380501110002', attributes: { city: 'Lviv' } },
    { email: 'bohdan@example.com', name: 'Bohdan', phone: '+380501110003', attributes: { city: 'Odesa' } },
  ];
  for (const reader of readers) await createContact(deps, accountId, list.id, reader);
}

/** Replaces the contact's fields with the body's; a status left out stays as it was. */
export async function updateContact(deps: ContactsDeps, accountId: number, listId: number, id: number, input: ContactInput) {
  const list = await listOf(deps, accountId, listId);
  const before = await contactOf(deps, accountId, listId, id);
  const values = checkContact(input, list.default_country, before.status);
  await checkAddressesFree(deps, listId, values, id);
  await deps.db
    .transaction()
    .execute(async (trx) => {
      await q.updateContact(trx, accountId, listId, id, values, Date.now());
      await q.addToCounts(trx, accountId, listId, countDelta(before, values));
      await rememberAttributeNames(trx, list, values);
    })
    .catch(addressTaken);
  return presentContact(await contactOf(deps, accountId, listId, id));
}

export async function deleteContact(deps: ContactsDeps, accountId: number, listId: number, id: number): Promise<void> {
  await listOf(deps, accountId, listId);
  const before = await contactOf(deps, accountId, listId, id);
  await deps.db.transaction().execute(async (trx) => {
    await q.deleteContact(trx, accountId, listId, id);
    await q.addToCounts(trx, accountId, listId, countDelta(before, null));
  });
}

export type BulkAction = 'delete' | 'unsubscribe';

/** Deletes or unsubscribes the chosen contacts, or all those passing a filter; answers how many changed. */
export async function bulkAction(
  deps: ContactsDeps,
  accountId: number,
  listId: number,
  action: BulkAction,
  selection: q.Selection,
): Promise<{ affected: number }> {
  await listOf(deps, accountId, listId);
  const affected = await deps.db.transaction().execute(async (trx) => {
    const changed =
      action === 'delete'
        ? await q.deleteContacts(trx, deps.dialect, accountId, listId, selection)
        : await q.unsubscribeContacts(trx, deps.dialect, accountId, listId, selection, Date.now());
    if (changed > 0) await q.recountList(trx, accountId, listId);
    return changed;
  });
  return { affected };
}

const EXPORT_FIELDS = ['email', 'phone', 'name', 'language', 'time_zone', 'status'] as const;

/**
 * The list (or the contacts passing a filter) as CSV, one chunk of contacts per query so no connection is held
 * while a slow client downloads. Headers are the ones an import recognises, so an export imports back as it was.
 */
export async function exportContacts(deps: ContactsDeps, accountId: number, listId: number, filter: q.ContactFilter) {
  const list = await listOf(deps, accountId, listId);
  const attributeNames = JSON.parse(list.attribute_names) as string[];
  async function* lines(): AsyncGenerator<string> {
    yield UTF8_BOM + csvLine([...EXPORT_FIELDS, ...attributeNames]);
    let after = 0;
    for (;;) {
      const rows = await q.contactsAfter(deps.db, deps.dialect, accountId, listId, filter, after, EXPORT_CHUNK);
      if (rows.length === 0) return;
      let chunk = '';
      for (const row of rows) {
        const attributes = JSON.parse(row.attributes) as Record<string, string>;
        chunk += csvLine([
          ...EXPORT_FIELDS.map((field) => row[field]),
          ...attributeNames.map((name) => attributes[name] ?? null),
        ]);
      }
      yield chunk;
      after = Number(rows[rows.length - 1]!.id);
    }
  }
  return { fileName: `${list.name}.csv`, lines: lines() };
}
