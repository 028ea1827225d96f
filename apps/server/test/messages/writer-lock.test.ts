import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { MessageWriter } from '../../src/messages/writer.js';
import { TEST_DB } from '../helpers/app.js';

// Made when the tests run: a file whose tests are skipped on this database leaves nothing behind.
let dataDir: string;
let file: string;
let database: DatabaseHandle;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'herald-writer-lock-'));
  file = path.join(dataDir, 'herald.db');
  database = openDatabase({ sqliteFile: file });
  await migrateToLatest(database);
});
afterAll(async () => {
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe.runIf(TEST_DB === 'sqlite')('the send API writer on SQLite', () => {
  it('waits for a write lock another connection holds without holding the event loop, then writes', async () => {
    const now = Date.now();
    const account = await database.db
      .insertInto('accounts')
      .values({
        email: 'lock@example.com',
        password_hash: 'x',
        time_zone_id: '001',
        avatar: '',
        profile: 'api',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // An engine thread's connection in the middle of a write transaction.
    const engine = new SQLite(file);
    engine.prepare('begin immediate').run();
    // Only this thread's own timer can end that transaction: a writer asleep in busy_timeout would never let it run.
    const released = new Promise<void>((resolve) =>
      setTimeout(() => {
        engine.prepare('commit').run();
        resolve();
      }, 50),
    );
    const written = await new MessageWriter(database.db).write([
      { accountId: Number(account.id), campaignId: null, lane: 0, channel: 'SMS', recipient: '+15550100' },
    ]);
    await released;
    engine.close();
    expect(written.ids).toHaveLength(1);
    const row = await database.db
      .selectFrom('messages')
      .select(['account_id', 'status'])
      .where('id', '=', written.ids[0]!)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ account_id: Number(account.id), status: 'unsent' });
  });
});
