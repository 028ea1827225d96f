/** All SQL of accounts, sessions, login failures and password resets. */
import { sql } from 'kysely';
import type { Db, Dialect } from '../db/database.js';
import { hashToken } from '../lib/crypto.js';

export function findSessionByToken(db: Db, token: string, seenAfter: number) {
  return db
    .selectFrom('sessions')
    .innerJoin('accounts', 'accounts.id', 'sessions.account_id')
    .select([
      'sessions.id as session_id',
      'sessions.account_id',
      'sessions.profile',
      'sessions.last_seen_at',
      'accounts.email',
      'accounts.is_admin',
      'accounts.language',
      'accounts.avatar',
      'accounts.time_zone_id',
      'accounts.display_name',
    ])
    .where('sessions.token_hash', '=', hashToken(token))
    .where('sessions.last_seen_at', '>', seenAfter)
    .executeTakeFirst();
}

export async function touchSession(db: Db, sessionId: number, now: number): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', sessionId).execute();
}

export async function insertSession(db: Db, accountId: number, token: string, profile: string, now: number) {
  await db
    .insertInto('sessions')
    .values({ account_id: accountId, token_hash: hashToken(token), profile, created_at: now, last_seen_at: now })
    .execute();
}

export async function deleteSession(db: Db, sessionId: number): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
}

export async function deleteOtherSessions(db: Db, accountId: number, keepSessionId: number | null): Promise<void> {
  let query = db.deleteFrom('sessions').where('account_id', '=', accountId);
  if (keepSessionId !== null) query = query.where('id', '!=', keepSessionId);
  await query.execute();
}

export async function deleteIdleSessions(db: Db, seenBefore: number): Promise<void> {
  await db.deleteFrom('sessions').where('last_seen_at', '<=', seenBefore).execute();
}

export function findAccountByEmail(db: Db, email: string) {
  return db.selectFrom('accounts').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
}

export function findAccountById(db: Db, accountId: number) {
  return db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirst();
}

export async function countAccounts(db: Db): Promise<number> {
  const row = await db
    .selectFrom('accounts')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function countAdmins(db: Db): Promise<number> {
  const row = await db
    .selectFrom('accounts')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('is_admin', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export interface NewAccount {
  email: string;
  passwordHash: string;
  timeZoneId: string;
  avatar: string;
  language: string | null;
  profile: string;
  isAdmin: boolean;
}

export async function insertAccount(db: Db, account: NewAccount, now: number): Promise<number> {
  const row = await db
    .insertInto('accounts')
    .values({
      email: account.email.toLowerCase(),
      password_hash: account.passwordHash,
      time_zone_id: account.timeZoneId,
      avatar: account.avatar,
      language: account.language,
      profile: account.profile,
      is_admin: account.isAdmin ? 1 : 0,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/**
 * Inserts the account only while the table is empty, in one statement: of several processes starting at once on a
 * fresh database one inserts, the others get nothing (or the unique e-mail's violation, which the caller treats alike).
 */
export async function insertFirstAccount(db: Db, account: NewAccount, now: number): Promise<number | null> {
  const row = await db
    .insertInto('accounts')
    .columns(['email', 'password_hash', 'time_zone_id', 'avatar', 'language', 'profile', 'is_admin', 'created_at', 'updated_at'])
    .expression(
      db
        .selectNoFrom([
          sql<string>`${account.email.toLowerCase()}`.as('email'),
          sql<string>`${account.passwordHash}`.as('password_hash'),
          sql<string>`${account.timeZoneId}`.as('time_zone_id'),
          sql<string>`${account.avatar}`.as('avatar'),
          sql<string | null>`cast(${account.language} as text)`.as('language'),
          sql<string>`${account.profile}`.as('profile'),
          sql<number>`cast(${account.isAdmin ? 1 : 0} as integer)`.as('is_admin'),
          sql<number>`cast(${now} as bigint)`.as('created_at'),
          sql<number>`cast(${now} as bigint)`.as('updated_at'),
        ])
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom('accounts').select('id')))),
    )
    .returning('id')
    .executeTakeFirst();
  return row ? Number(row.id) : null;
}

export type AccountChanges = Partial<{
  display_name: string | null;
  password_hash: string;
  time_zone_id: string;
  avatar: string;
  language: string;
  profile: string;
}>;

export async function updateAccount(db: Db, accountId: number, changes: AccountChanges, now: number): Promise<void> {
  await db
    .updateTable('accounts')
    .set({ ...changes, updated_at: now })
    .where('id', '=', accountId)
    .execute();
}

export async function countLoginFailures(
  db: Db,
  attemptKey: string,
  since: number,
): Promise<{ count: number; oldest: number | null }> {
  const row = await db
    .selectFrom('login_failures')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min('failed_at').as('oldest')])
    .where('attempt_key', '=', attemptKey)
    .where('failed_at', '>', since)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), oldest: row.oldest === null ? null : Number(row.oldest) };
}

/** Throttle events older than the longest window (an hour) are pruned as new ones arrive. */
const THROTTLE_MEMORY_MS = 60 * 60 * 1000;

export async function recordLoginFailure(db: Db, attemptKey: string, now: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('login_failures')
      .where('failed_at', '<=', now - THROTTLE_MEMORY_MS)
      .execute();
    await trx.insertInto('login_failures').values({ attempt_key: attemptKey, failed_at: now }).execute();
  });
}

export async function clearLoginFailures(db: Db, attemptKey: string): Promise<void> {
  await db.deleteFrom('login_failures').where('attempt_key', '=', attemptKey).execute();
}

export async function insertPasswordReset(db: Db, accountId: number, token: string, expiresAt: number, now: number) {
  await db
    .insertInto('password_resets')
    .values({ account_id: accountId, token_hash: hashToken(token), expires_at: expiresAt, used_at: null, created_at: now })
    .execute();
}

/** Marks a live reset token used and returns its account, or nothing if it is unknown, used or expired. */
export async function consumePasswordReset(db: Db, token: string, now: number): Promise<number | null> {
  const row = await db
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('token_hash', '=', hashToken(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('account_id')
    .executeTakeFirst();
  return row ? Number(row.account_id) : null;
}

/** Every table of this database holding account data, found from the schema so tables added later are covered too. */
async function accountTables(db: Db, dialect: Dialect): Promise<string[]> {
  const rows =
    dialect === 'postgres'
      ? await sql<{ name: string }>`select table_name as name from information_schema.columns
          where table_schema = current_schema() and column_name = 'account_id'`.execute(db)
      : await sql<{ name: string }>`select m.name as name from sqlite_master m, pragma_table_info(m.name) p
          where m.type = 'table' and p.name = 'account_id'`.execute(db);
  return rows.rows.map((row) => row.name).filter((name) => /^[a-z_][a-z0-9_]*$/.test(name));
}

/** Files under DATA_DIR the account's rows point at: feedback attachments, contact import uploads and reports. */
export async function accountFiles(db: Db, accountId: number): Promise<string[]> {
  const attachments = await db.selectFrom('feedback_files').select('stored_path').where('account_id', '=', accountId).execute();
  const imports = await db
    .selectFrom('imports')
    .select(['file_path', 'report_path'])
    .where('account_id', '=', accountId)
    .execute();
  return [
    ...attachments.map((row) => row.stored_path),
    ...imports.flatMap((row) => [row.file_path, row.report_path]).filter((file): file is string => file !== null),
  ];
}

/** Deletes an account and every row that belongs to it, sessions included, in one transaction. */
export async function deleteAccountData(db: Db, dialect: Dialect, accountId: number, email: string): Promise<string[]> {
  const tables = await accountTables(db, dialect);
  await db.transaction().execute(async (trx) => {
    for (const table of tables) {
      await sql`delete from ${sql.table(table)} where account_id = ${accountId}`.execute(trx);
    }
    await trx
      .deleteFrom('login_failures')
      .where((eb) =>
        eb.or([
          // A prefix compare, not LIKE: an e-mail may hold _ or %.
          eb(sql`substr(attempt_key, 1, ${email.length + 1})`, '=', `${email}|`),
          eb('attempt_key', '=', `reset|${email}`),
        ]),
      )
      .execute();
    await trx.deleteFrom('accounts').where('id', '=', accountId).execute();
  });
  return tables;
}
