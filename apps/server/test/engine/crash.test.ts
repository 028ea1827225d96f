/**
 * The engine process is killed with SIGKILL mid-send and started again: every recipient gets its
 * message, and the only duplicates are messages the provider accepted in the instant before the kill.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { IN_FLIGHT_WINDOW } from '../../src/engine/dispatcher.js';
import { engineThreadCount } from '../../src/engine/threads.js';
import { insertMessages } from '../../src/messages/ledger.js';
import { TEST_DB } from '../helpers/app.js';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink.js';
import { waitFor } from '../helpers/wait.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const PORT = 3170 + Math.floor(Math.random() * 20);
const TOTAL = 1200;
// Made when the tests run: a file whose tests are skipped on this database leaves nothing behind.
let dataDir: string;
let sink: SmtpSink;
let server: ChildProcess | undefined;

function startServer(port = PORT, stderr: 'inherit' | 'pipe' = 'inherit'): ChildProcess {
  return spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', path.join(repoRoot, 'apps/server/src/main.ts'), 'serve'],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        HERALD_SEED: '0',
        LOG_LEVEL: 'warn',
        DATABASE_URL: '',
      },
      stdio: ['ignore', 'ignore', stderr],
    },
  );
}

const healthy = async () => {
  try {
    return (await fetch(`http://127.0.0.1:${PORT}/api/health`)).ok;
  } catch {
    return false;
  }
};

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'herald-crash-'));
  sink = await startSmtpSink();
});
afterAll(async () => {
  server?.kill('SIGKILL');
  await sink.close();
  rmSync(dataDir, { recursive: true, force: true });
});

// The embedded single-process mode is SQLite's; scale mode has its own fault suite.
describe.skipIf(TEST_DB !== 'sqlite')('SIGKILL mid-campaign', () => {
  it('loses nothing and doubles at most the in-flight window', { timeout: 120_000 }, async () => {
    server = startServer();
    await waitFor(healthy, 30_000, 'the first start');
    const signup = await fetch(`http://127.0.0.1:${PORT}/api/data/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'crash@example.com', password: 'Crash1234', timeZone: { id: '001' } }),
    });
    const { token } = (await signup.json()) as { token: string };
    const config = await fetch(`http://127.0.0.1:${PORT}/api/data/provider-configurations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-token': token },
      body: JSON.stringify({
        name: 'Sink',
        type: 'smtp',
        settings: {
          host: '127.0.0.1',
          port: sink.port,
          security: 'none',
          senderEmail: 'news@herald.test',
          messagesPerSecond: 150,
        },
      }),
    });
    const configId = ((await config.json()) as { id: number }).id;

    const database = openDatabase({ sqliteFile: path.join(dataDir, 'herald.db') });
    const account = await database.db
      .selectFrom('accounts')
      .select('id')
      .where('email', '=', 'crash@example.com')
      .executeTakeFirstOrThrow();
    await insertMessages(
      database.db,
      Array.from({ length: TOTAL }, (_, i) => ({
        accountId: Number(account.id),
        campaignId: null,
        lane: 1,
        channel: 'EMAIL',
        recipient: `user${i}@example.com`,
        routeConfigId: configId,
        payload: JSON.stringify({ subject: `Message ${i}`, text: 'Hello' }),
      })),
    );

    await waitFor(() => sink.messages.length >= 150, 30_000, 'sending to start');
    server.kill('SIGKILL');
    await new Promise((resolve) => server!.once('exit', resolve));
    const receivedAtKill = sink.messages.length;
    expect(receivedAtKill).toBeLessThan(TOTAL);

    server = startServer();
    await waitFor(healthy, 30_000, 'the restart');
    const pending = async () =>
      Number(
        (
          await database.db
            .selectFrom('messages')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('status', 'not in', ['sent', 'failed', 'filtered'])
            .executeTakeFirstOrThrow()
        ).n,
      );
    await waitFor(async () => (await pending()) === 0, 90_000, 'every message to be settled');

    const perRecipient = new Map<string, number>();
    for (const message of sink.messages) {
      const to = message.rcptTo[0]?.address ?? '';
      perRecipient.set(to, (perRecipient.get(to) ?? 0) + 1);
    }
    const lost = Array.from({ length: TOTAL }, (_, i) => `user${i}@example.com`).filter((to) => !perRecipient.has(to));
    const duplicates = sink.messages.length - perRecipient.size;
    const statuses = await database.db
      .selectFrom('messages')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('status')
      .execute();
    await database.close();
    console.log(
      `SIGKILL after ${receivedAtKill} of ${TOTAL} delivered: 0 expected lost, ${lost.length} lost; in-flight window ${duplicates} duplicates`,
    );
    expect(lost).toEqual([]);
    expect(statuses.map((row) => [row.status, Number(row.n)])).toEqual([['sent', TOTAL]]);
    // At most the chunks in flight at the kill can be sent again: one dispatcher's window per engine thread.
    expect(duplicates).toBeLessThanOrEqual(engineThreadCount() * IN_FLIGHT_WINDOW);
  });

  it("refuses a second herald serve on the same data directory, which would take the running one's messages", async () => {
    // The restarted server of the test above still runs (the kill -9 gave its lock back); alone, this test starts one.
    if (!(await healthy())) {
      server = startServer();
      await waitFor(healthy, 30_000, 'the first start');
    }
    const second = startServer(PORT + 20, 'pipe');
    let stderr = '';
    second.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const [code] = (await new Promise((resolve) => second.once('exit', (...args) => resolve(args)))) as [number | null];
    expect(code).toBe(1);
    expect(stderr).toContain(`Another Herald is already running on ${dataDir}`);
    expect(await healthy()).toBe(true);
  });
});
