import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { signUp, TEST_DB, testConfig } from '../helpers/app.js';

// Made when the tests run: a file whose tests are skipped on this database leaves nothing behind.
let dataDir: string;
let file: string;
let database: DatabaseHandle;
let app: FastifyInstance;

describe.runIf(TEST_DB === 'sqlite')('a request while another connection holds SQLite’s write lock too long', () => {
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'herald-busy-'));
    file = path.join(dataDir, 'herald.db');
    database = openDatabase({ sqliteFile: file, busyWaitMs: 200 });
    await migrateToLatest(database);
    app = await buildApp({ config: testConfig(dataDir), database, runWorkers: false });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 503 with Retry-After in the user’s language, changes nothing, and succeeds once the lock is gone', async () => {
    const { token } = await signUp(app);
    const create = () =>
      app.inject({
        method: 'POST',
        url: '/api/data/contact-lists',
        headers: { 'x-token': token, 'accept-language': 'uk' },
        payload: { name: 'Busy' },
      });
    // A large import's final transaction on another connection (an engine thread or the importer).
    const importer = new SQLite(file);
    importer.prepare('begin immediate').run();
    const refused = await create();
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.json()).toMatchObject({ key: 'error.busy', message: expect.stringContaining('Нічого не змінено') });
    importer.prepare('commit').run();
    importer.close();

    const lists = await app.inject({ method: 'GET', url: '/api/data/contact-lists', headers: { 'x-token': token } });
    expect(lists.json().total).toBe(0);
    expect((await create()).statusCode).toBe(200);
  });
});
