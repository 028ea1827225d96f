/** All SQL of provider configs, balances, groups and default options; every query is scoped to an account. */
import type { Db } from '../db/database.js';
import type { ProviderBalancesTable, ProviderConfigsTable, SandboxMessagesTable } from './tables.js';

export function listConfigs(db: Db, accountId: number, category?: string) {
  let query = db.selectFrom('provider_configs').selectAll().where('account_id', '=', accountId);
  if (category) query = query.where('category', '=', category);
  return query.orderBy('category').orderBy('name').execute();
}

export function findConfig(db: Db, accountId: number, id: number) {
  return db
    .selectFrom('provider_configs')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export type ConfigRow = NonNullable<Awaited<ReturnType<typeof findConfig>>>;

/** What a save writes: every column but the key, the owner and the timestamps. */
export type ConfigValues = Omit<ProviderConfigsTable, 'id' | 'account_id' | 'created_at' | 'updated_at'>;

export async function insertConfig(db: Db, accountId: number, values: ConfigValues, now: number): Promise<number> {
  const row = await db
    .insertInto('provider_configs')
    .values({ ...values, account_id: accountId, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updateConfig(db: Db, accountId: number, id: number, values: ConfigValues, now: number): Promise<boolean> {
  const result = await db
    .updateTable('provider_configs')
    .set({ ...values, updated_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The account's groups whose only config this is: deleting it would leave them nothing to send through. */
export async function groupsOnlyWith(db: Db, accountId: number, configId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('provider_groups')
    .innerJoin('provider_group_configs', 'provider_group_configs.group_id', 'provider_groups.id')
    .select('provider_groups.name')
    .where('provider_groups.account_id', '=', accountId)
    .groupBy(['provider_groups.id', 'provider_groups.name'])
    .having((eb) => eb.fn.countAll(), '=', 1)
    .having((eb) => eb.fn.max('provider_group_configs.config_id'), '=', configId)
    .orderBy('provider_groups.name')
    .execute();
  return rows.map((row) => row.name);
}

export async function deleteConfig(db: Db, accountId: number, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom('provider_configs')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function countConfigsByCategory(db: Db, accountId: number) {
  const rows = await db
    .selectFrom('provider_configs')
    .select(['category', (eb) => eb.fn.countAll<number>().as('count')])
    .where('account_id', '=', accountId)
    .groupBy('category')
    .execute();
  return rows.map((row) => ({ category: row.category, count: Number(row.count) }));
}

export function findBalances(db: Db, accountId: number, configIds: number[]) {
  if (configIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('provider_balances')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('config_id', 'in', configIds)
    .execute();
}

export async function saveBalance(db: Db, row: ProviderBalancesTable): Promise<void> {
  await db
    .insertInto('provider_balances')
    .values(row)
    .onConflict((oc) =>
      oc
        .column('config_id')
        .doUpdateSet({ amount: row.amount, currency: row.currency, error: row.error, checked_at: row.checked_at }),
    )
    .execute();
}

export function findBounceAddress(db: Db, accountId: number) {
  return db.selectFrom('accounts').select('bounce_address').where('id', '=', accountId).executeTakeFirst();
}

export async function setBounceAddress(db: Db, accountId: number, address: string | null): Promise<void> {
  await db.updateTable('accounts').set({ bounce_address: address }).where('id', '=', accountId).execute();
}

export function listProviderOptions(db: Db, accountId: number) {
  return db.selectFrom('user_provider_options').selectAll().where('account_id', '=', accountId).orderBy('category').execute();
}

export async function setProviderOption(db: Db, accountId: number, category: string, configId: number): Promise<void> {
  await db
    .insertInto('user_provider_options')
    .values({ account_id: accountId, category, config_id: configId })
    .onConflict((oc) => oc.columns(['account_id', 'category']).doUpdateSet({ config_id: configId }))
    .execute();
}

export function listGroups(
  db: Db,
  accountId: number,
  options: { category?: string | undefined; limit?: number; offset?: number },
) {
  let query = db.selectFrom('provider_groups').selectAll().where('account_id', '=', accountId);
  if (options.category) query = query.where('category', '=', options.category);
  query = query.orderBy('name').orderBy('id');
  if (options.limit !== undefined) query = query.limit(options.limit).offset(options.offset ?? 0);
  return query.execute();
}

export async function countGroups(db: Db, accountId: number, category?: string): Promise<number> {
  let query = db
    .selectFrom('provider_groups')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId);
  if (category) query = query.where('category', '=', category);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

export function findGroup(db: Db, accountId: number, id: number) {
  return db.selectFrom('provider_groups').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
}

export function listGroupMembers(db: Db, groupIds: number[]) {
  if (groupIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('provider_group_configs')
    .innerJoin('provider_configs', 'provider_configs.id', 'provider_group_configs.config_id')
    .select([
      'provider_group_configs.group_id',
      'provider_group_configs.config_id',
      'provider_group_configs.priority',
      'provider_configs.name',
      'provider_configs.type',
      'provider_configs.active',
    ])
    .where('provider_group_configs.group_id', 'in', groupIds)
    .orderBy('provider_group_configs.priority')
    .orderBy('provider_configs.name')
    .execute();
}

export async function replaceGroupMembers(
  db: Db,
  groupId: number,
  members: { configId: number; priority: number }[],
): Promise<void> {
  await db.deleteFrom('provider_group_configs').where('group_id', '=', groupId).execute();
  if (members.length === 0) return;
  await db
    .insertInto('provider_group_configs')
    .values(members.map((member) => ({ group_id: groupId, config_id: member.configId, priority: member.priority })))
    .execute();
}

export async function insertGroup(db: Db, accountId: number, name: string, category: string, now: number): Promise<number> {
  const row = await db
    .insertInto('provider_groups')
    .values({ account_id: accountId, name, category, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updateGroup(
  db: Db,
  accountId: number,
  id: number,
  name: string,
  category: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('provider_groups')
    .set({ name, category, updated_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteGroup(db: Db, accountId: number, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom('provider_groups')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Rows per INSERT or UPDATE: well under SQLite's bound-parameter limit. */
const SANDBOX_ROWS_PER_STATEMENT = 100;

export async function insertSandboxMessages(
  db: Db,
  rows: Omit<SandboxMessagesTable, 'id' | 'status' | 'created_at'>[],
): Promise<void> {
  const created = Date.now();
  // All or none: a send that fails is retried, and must not leave part of itself in the inbox.
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += SANDBOX_ROWS_PER_STATEMENT)
      await trx
        .insertInto('sandbox_messages')
        .values(rows.slice(i, i + SANDBOX_ROWS_PER_STATEMENT).map((row) => ({ ...row, status: 'accepted', created_at: created })))
        .execute();
  });
}

export async function setSandboxStatuses(db: Db, receipts: { providerMessageId: string; status: string }[]): Promise<void> {
  const idsByStatus = new Map<string, string[]>();
  for (const { providerMessageId, status } of receipts) {
    const ids = idsByStatus.get(status);
    if (ids) ids.push(providerMessageId);
    else idsByStatus.set(status, [providerMessageId]);
  }
  await db.transaction().execute(async (trx) => {
    for (const [status, ids] of idsByStatus)
      for (let i = 0; i < ids.length; i += SANDBOX_ROWS_PER_STATEMENT)
        await trx
          .updateTable('sandbox_messages')
          .set({ status })
          .where('provider_message_id', 'in', ids.slice(i, i + SANDBOX_ROWS_PER_STATEMENT))
          .execute();
  });
}

export function listSandboxMessages(
  db: Db,
  accountId: number,
  options: { category?: string | undefined; limit: number; offset: number },
) {
  let query = db.selectFrom('sandbox_messages').selectAll().where('account_id', '=', accountId);
  if (options.category) query = query.where('category', '=', options.category);
  return query.orderBy('id', 'desc').limit(options.limit).offset(options.offset).execute();
}

export async function countSandboxMessages(db: Db, accountId: number, category?: string): Promise<number> {
  let query = db
    .selectFrom('sandbox_messages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId);
  if (category) query = query.where('category', '=', category);
  return Number((await query.executeTakeFirstOrThrow()).n);
}
