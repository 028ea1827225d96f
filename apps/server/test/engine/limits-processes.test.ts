/**
 * A day limit holds across processes: two `herald worker` processes share one PostgreSQL database and a
 * config limited to N messages a day; exactly N go out, the rest wait for tomorrow.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { insertMessages } from '../../src/messages/ledger.js';
import { createTestApp, signUp, TEST_DATABASE_URL, TEST_DB, type TestApp } from '../helpers/app.js';
import { accountIdOf, emails, statusCounts } from './helpers.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const LIMIT = 25;
const TOTAL = 120;
const workers: ChildProcess[] = [];
let t: TestApp | undefined;

afterAll(async () => {
  for (const worker of workers) worker.kill('SIGKILL');
  await t?.close();
});

describe.skipIf(TEST_DB !== 'postgres')('limits across worker processes', () => {
  it('stops at exactly the day limit with two workers sending', { timeout: 90_000 }, async () => {
    // PostgreSQL without Redis, even in the scale-mode pass: test/scale/limits.test.ts covers the day limit with Redis.
    const app = await createTestApp({ redisUrl: undefined });
    t = app;
    const user = await signUp(app.app);
    const accountId = await accountIdOf(app, user.email);
    const config = await app.app.inject({
      method: 'POST',
      url: '/api/data/provider-configurations',
      headers: { 'x-token': user.token },
      payload: { name: 'Limited', type: 'sandbox-email', limitPerDay: LIMIT },
    });
    const schema = (
      await app.database.db.selectNoFrom((eb) => eb.fn<string>('current_schema').as('schema')).executeTakeFirstOrThrow()
    ).schema;
    const url = `${TEST_DATABASE_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    const dataDir = mkdtempSync(path.join(tmpdir(), 'herald-workers-'));
    for (let i = 0; i < 2; i++) {
      workers.push(
        spawn(
          process.execPath,
          ['--conditions=source', '--import', 'tsx', path.join(repoRoot, 'apps/server/src/main.ts'), 'worker'],
          {
            cwd: repoRoot,
            // The same key as the test app's, or the workers could not read the config's secrets.
            env: {
              ...process.env,
              DATABASE_URL: url,
              DATA_DIR: dataDir,
              HERALD_SECRET: app.config.secret.toString('hex'),
              HERALD_SEED: '0',
              LOG_LEVEL: 'warn',
            },
            stdio: ['ignore', 'ignore', 'inherit'],
          },
        ),
      );
    }
    await insertMessages(
      app.database.db,
      emails(
        accountId,
        Array.from({ length: TOTAL }, (_, i) => `w${i}@example.com`),
        { routeConfigId: config.json().id },
      ),
    );
    const deadline = Date.now() + 60_000;
    let counts: Record<string, number> = {};
    while (Date.now() < deadline) {
      counts = await statusCounts(app, accountId);
      if (counts.sent === LIMIT && counts.unsent === TOTAL - LIMIT && !counts.processing) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    for (const worker of workers) worker.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
    expect(counts).toEqual({ sent: LIMIT, unsent: TOTAL - LIMIT });
    const owners = await app.database.db.selectFrom('message_events').select('message_id').where('status', '=', 'sent').execute();
    expect(owners.length).toBeGreaterThanOrEqual(LIMIT);
  });
});
