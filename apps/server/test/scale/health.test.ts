/** In scale mode an API process reports itself down while it cannot reach Redis, so a load balancer stops sending it work. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { openTestDatabase, TEST_REDIS_URL, testConfig } from '../helpers/app.js';
import { waitFor } from '../helpers/wait.js';
import { scaleSkipReason } from './helpers.js';

const skipReason = await scaleSkipReason();

/** An API process (no sending) on the test database, with Redis at `redisUrl`. */
async function apiProcess(redisUrl: string) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'herald-health-'));
  const { database, drop } = await openTestDatabase();
  await migrateToLatest(database);
  const app = await buildApp({ config: testConfig(dataDir, { redisUrl }), database, runWorkers: false });
  await app.ready();
  return {
    health: () => app.inject({ method: 'GET', url: '/api/health' }),
    async close() {
      await app.close();
      await database.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe.skipIf(skipReason !== undefined)('health in scale mode', () => {
  it('is down while Redis does not answer, and up with it', async () => {
    const cut = await apiProcess('redis://127.0.0.1:1');
    try {
      const answer = await cut.health();
      expect(answer.statusCode).toBe(503);
      expect(answer.json()).toEqual({ status: 'down' });
    } finally {
      await cut.close();
    }
    const connected = await apiProcess(TEST_REDIS_URL);
    try {
      await waitFor(async () => (await connected.health()).statusCode === 200, 5000, 'Redis answering');
      expect((await connected.health()).json()).toEqual({ status: 'up' });
    } finally {
      await connected.close();
    }
  });
});
