/** Migration 0009 rebuilds the rollup with its template dimension from the messages already in the ledger. */
import { type Migration, Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/database.js';
import { migrations } from '../../src/db/migrations/index.js';
import { openTestDatabase } from '../helpers/app.js';

let database: DatabaseHandle;
let drop: () => Promise<void>;

function migrator(handle: DatabaseHandle): Migrator {
  return new Migrator({
    db: handle.db,
    provider: {
      async getMigrations() {
        const wrapped: Record<string, Migration> = {};
        for (const [name, migration] of Object.entries(migrations))
          wrapped[name] = { up: (db) => migration.up(db, handle.dialect) };
        return wrapped;
      },
    },
    ...(handle.schema ? { migrationTableSchema: handle.schema } : {}),
  });
}

beforeAll(async () => {
  ({ database, drop } = await openTestDatabase());
});
afterAll(async () => {
  await database.close();
  await drop();
});

describe('migration 0009', () => {
  it('keys the existing counts by template, matching a direct count', async () => {
    const before = await migrator(database).migrateTo('0008_api');
    expect(before.error).toBeUndefined();
    const { db } = database;
    const now = Date.UTC(2026, 10, 20, 10, 30);
    const account = await sql<{
      id: number;
    }>`insert into accounts (email, password_hash, time_zone_id, avatar, language, profile, is_admin, created_at, updated_at)
      values ('old@example.com', 'x', '001', 'avatar-1.svg', 'en', 'site', 0, ${now}, ${now}) returning id`.execute(db);
    const accountId = Number(account.rows[0]!.id);
    const template = await sql<{
      id: number;
    }>`insert into templates (account_id, name, channel, subject, html, text, text_generated, sms_text, created_at, updated_at)
      values (${accountId}, 'old', 'EMAIL', 's', 'h', 't', 0, '', ${now}, ${now}) returning id`.execute(db);
    const templateId = Number(template.rows[0]!.id);
    const rows = [
      { template: templateId, status: 'sent', at: now },
      { template: templateId, status: 'sent', at: now + 60_000 },
      { template: null, status: 'delivered', at: now },
      { template: templateId, status: 'read', at: now + 3_600_000 },
    ];
    for (const row of rows) {
      await sql`insert into messages (account_id, lane, channel, recipient, template_id, status, attempts, next_attempt_at, created_at, updated_at)
        values (${accountId}, 0, 'EMAIL', 'r@example.com', ${row.template}, ${row.status}, 1, ${row.at}, ${row.at}, ${row.at})`.execute(
        db,
      );
    }

    const after = await migrator(database).migrateToLatest();
    expect(after.error).toBeUndefined();
    const rollup = await db
      .selectFrom('message_rollup')
      .select(['hour', 'template_id', 'status', 'count'])
      .where('account_id', '=', accountId)
      .orderBy('hour')
      .orderBy('status')
      .execute();
    const hour = Math.floor(now / 3_600_000);
    expect(rollup.map((row) => [Number(row.hour), Number(row.template_id), row.status, Number(row.count)])).toEqual([
      [hour, 0, 'delivered', 1],
      [hour, templateId, 'sent', 2],
      [hour + 1, templateId, 'read', 1],
    ]);
  });
});
