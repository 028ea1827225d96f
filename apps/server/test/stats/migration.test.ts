/**
 * Migration 0009 rebuilds the rollup with its template dimension from the messages already in the ledger;
 * 0013 turns the English pause reasons into message keys; 0014 sums the hourly rollup into the daily one.
 */
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

describe('migration 0013', () => {
  it("turns the supervisor's English pause reasons into a message key with their figures", async () => {
    const { database: older, drop: dropOlder } = await openTestDatabase();
    try {
      const before = await migrator(older).migrateTo('0012_contacts_folded_name');
      expect(before.error).toBeUndefined();
      const { db } = older;
      const now = Date.UTC(2026, 10, 20, 10, 30);
      const account = await sql<{
        id: number;
      }>`insert into accounts (email, password_hash, time_zone_id, avatar, language, profile, is_admin, created_at, updated_at)
        values ('paused@example.com', 'x', '001', 'avatar-1.svg', 'en', 'site', 0, ${now}, ${now}) returning id`.execute(db);
      const accountId = Number(account.rows[0]!.id);
      const campaign = (name: string, detail: string | null) =>
        sql<{
          id: number;
        }>`insert into campaigns (account_id, name, channel, state, total, suppressed, materialized_to, materialized, detail, created_at, updated_at)
          values (${accountId}, ${name}, 'EMAIL', 'paused', 0, 0, 0, 1, ${detail}, ${now}, ${now}) returning id`.execute(db);
      await campaign('Paused', 'paused automatically: 17 of the last 20 messages failed');
      await campaign('Paused by hand', null);

      const after = await migrator(older).migrateToLatest();
      expect(after.error).toBeUndefined();
      const rows = await db
        .selectFrom('campaigns')
        .select(['name', 'detail', 'detail_params'])
        .where('account_id', '=', accountId)
        .orderBy('name')
        .execute();
      expect(rows).toEqual([
        { name: 'Paused', detail: 'campaigns.autoPaused', detail_params: '{"failed":17,"settled":20}' },
        { name: 'Paused by hand', detail: null, detail_params: null },
      ]);
    } finally {
      await older.close();
      await dropOlder();
    }
  });
});

describe('migration 0014', () => {
  it('fills the daily rollup with the hourly one summed per UTC day', async () => {
    const { database: older, drop: dropOlder } = await openTestDatabase();
    try {
      const before = await migrator(older).migrateTo('0013_statistics_speed');
      expect(before.error).toBeUndefined();
      const { db } = older;
      const day = Math.floor(Date.UTC(2026, 10, 20) / 86_400_000);
      const bucket = { account_id: 7, channel: 'EMAIL', config_id: 3, campaign_id: 0, template_id: 5 };
      await db
        .insertInto('message_rollup')
        .values([
          { ...bucket, hour: day * 24, status: 'sent', count: 2 },
          { ...bucket, hour: day * 24 + 23, status: 'sent', count: 3 },
          { ...bucket, hour: day * 24 + 24, status: 'sent', count: 4 },
          { ...bucket, hour: day * 24 + 5, status: 'read', count: 1 },
          { ...bucket, account_id: 8, hour: day * 24 + 5, status: 'read', count: 6 },
        ])
        .execute();

      const after = await migrator(older).migrateToLatest();
      expect(after.error).toBeUndefined();
      const daily = await db
        .selectFrom('message_rollup_daily')
        .selectAll()
        .orderBy('account_id')
        .orderBy('day')
        .orderBy('status')
        .execute();
      expect(
        daily.map((row) => [
          Number(row.account_id),
          Number(row.day),
          row.channel,
          Number(row.config_id),
          Number(row.template_id),
          row.status,
          Number(row.count),
        ]),
      ).toEqual([
        [7, day, 'EMAIL', 3, 5, 'read', 1],
        [7, day, 'EMAIL', 3, 5, 'sent', 5],
        [7, day + 1, 'EMAIL', 3, 5, 'sent', 4],
        [8, day, 'EMAIL', 3, 5, 'read', 6],
      ]);
    } finally {
      await older.close();
      await dropOlder();
    }
  });
});
