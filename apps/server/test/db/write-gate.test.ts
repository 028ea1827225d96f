import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.js';
import { TEST_DB } from '../helpers/app.js';

// Made when the tests run: a file whose tests are skipped on this database leaves nothing behind.
let dataDir: string;
let file: string;
let api: DatabaseHandle;
let engine: DatabaseHandle;

const writers = async (db: DatabaseHandle) =>
  (await sql<{ writer: string }>`select writer from turns order by id`.execute(db.db)).rows.map((row) => row.writer);

describe.runIf(TEST_DB === 'sqlite')('SQLite’s write lock between the API thread and an engine thread (herald serve)', () => {
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'herald-gate-'));
    file = path.join(dataDir, 'herald.db');
    api = openDatabase({ sqliteFile: file });
    engine = openDatabase({ sqliteFile: file, engineOf: api.writeGate!.shared });
    await sql`create table turns (id integer primary key, writer text not null)`.execute(api.db);
  });
  afterAll(async () => {
    await engine.close();
    await api.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('lets a request waiting for the lock write before the engine’s next transaction', async () => {
    let apiWrite: Promise<unknown> | undefined;
    await engine.db.transaction().execute(async (trx) => {
      await sql`insert into turns (writer) values ('engine, first batch')`.execute(trx);
      // A request arrives while the engine holds the lock, and waits for it.
      apiWrite = sql`insert into turns (writer) values ('api')`.execute(api.db);
      await new Promise((resolve) => setTimeout(resolve, 10));
    });
    // The engine goes straight on to its next batch, as its claiming loop does.
    await engine.db.transaction().execute(async (trx) => {
      await sql`insert into turns (writer) values ('engine, next batch')`.execute(trx);
    });
    await apiWrite;
    expect(await writers(api)).toEqual(['engine, first batch', 'api', 'engine, next batch']);
  });

  it('keeps the engine sending when no request waits', async () => {
    const started = performance.now();
    for (let i = 0; i < 20; i++)
      await engine.db.transaction().execute(async (trx) => {
        await sql`insert into turns (writer) values ('engine')`.execute(trx);
      });
    expect(performance.now() - started).toBeLessThan(500);
  });
});
