/**
 * `herald serve | api | worker` refuses a start that cannot work with one line naming the setting, and never spends
 * the first start's one-time password on a start that fails.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_DB } from './helpers/app.js';
import { waitFor } from './helpers/wait.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const dataDirs: string[] = [];
const servers: Server[] = [];

afterAll(async () => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

function newDataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'herald-start-'));
  dataDirs.push(dir);
  return dir;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Herald from its sources in `role`, on SQLite without a secret unless `env` says otherwise. */
function herald(role: string, env: Record<string, string>) {
  return spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', path.join(repoRoot, 'apps/server/src/main.ts'), role],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        HERALD_SEED: '0',
        DATABASE_URL: '',
        HERALD_SECRET: '',
        ...env,
      },
    },
  );
}

/** Runs Herald until it exits, or until it prints `until` (then stops it). */
function run(role: string, env: Record<string, string>, until?: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = herald(role, env);
    const out = { stdout: '', stderr: '' };
    child.stdout.on('data', (chunk) => {
      out.stdout += chunk;
      if (until && out.stdout.includes(until)) child.kill('SIGTERM');
    });
    child.stderr.on('data', (chunk) => {
      out.stderr += chunk;
    });
    child.on('exit', (code) => resolve({ code, ...out }));
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function takenPort(): Promise<number> {
  const server = createServer();
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

describe.skipIf(TEST_DB !== 'sqlite')('starting Herald', () => {
  it('refuses a port out of range in one line, and keeps the first account for the start that works', {
    timeout: 60_000,
  }, async () => {
    const dataDir = newDataDir();
    const refused = await run('serve', { PORT: '70000', DATA_DIR: dataDir });
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe('Herald cannot start: PORT must be a whole number from 1 to 65535, got "70000"');
    expect(refused.stdout).not.toContain('password');

    const port = await takenPort();
    const busy = await run('serve', { PORT: String(port), DATA_DIR: dataDir });
    expect(busy.code).toBe(1);
    expect(busy.stderr.trim()).toBe(
      `Herald cannot start: PORT ${port} is in use by another program: stop it, or set another PORT.`,
    );
    expect(busy.stdout).not.toContain('password');

    const started = await run('serve', { PORT: String(port + 1), DATA_DIR: dataDir }, 'shown once');
    expect(started.stdout).toMatch(/Herald first start: an admin account was created\.\n\s+e-mail: +\S+\n\s+password: +\S+/);
  });

  it('lets a new user send a first campaign at once: an account, sandbox providers, a sample list and templates', {
    timeout: 60_000,
  }, async () => {
    const port = await freePort();
    const child = herald('serve', { HERALD_SEED: '1', PORT: String(port), DATA_DIR: newDataDir() });
    try {
      let stdout = '';
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
      });
      await waitFor(async () => stdout.includes('shown once'), 30_000, 'the first start banner');
      expect(stdout).toContain('a sample list and templates are ready');
      const [, email, password] = /e-mail: +(\S+)\n\s+password: +(\S+)/.exec(stdout)!;
      const base = `http://127.0.0.1:${port}`;
      const login = await fetch(`${base}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username: email!, password: password! }),
      });
      const { token } = (await login.json()) as { token: string };
      const call = async (method: string, url: string, body?: unknown) =>
        (
          await fetch(`${base}${url}`, {
            method,
            headers: { 'x-token': token, ...(body ? { 'content-type': 'application/json' } : {}) },
            body: body ? JSON.stringify(body) : null,
          })
        ).json();
      const lists = await call('GET', '/api/data/contact-lists');
      expect(lists.items).toEqual([
        expect.objectContaining({ name: 'Sample list', counts: expect.objectContaining({ total: 3 }) }),
      ]);
      for (const [channel, templateName] of [
        ['EMAIL', 'welcome'],
        ['SMS', 'welcome-sms'],
      ] as const) {
        const campaign = await call('POST', '/api/data/campaigns', {
          name: `First ${channel}`,
          channel,
          listId: lists.items[0].id,
          templateName,
        });
        await call('POST', `/api/data/campaigns/${campaign.id}/start`, {});
        await waitFor(async () => (await call('GET', `/api/data/campaigns/${campaign.id}`)).state === 'sent', 20_000, 'sent');
        const sent = await call('GET', `/api/data/campaigns/${campaign.id}`);
        expect(sent.total).toBe(3);
      }
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('refuses an api or worker process on PostgreSQL without the shared HERALD_SECRET', async () => {
    for (const role of ['api', 'worker']) {
      const refused = await run(role, { DATABASE_URL: 'postgres://127.0.0.1:1/none', DATA_DIR: newDataDir() });
      expect(refused.code).toBe(1);
      expect(refused.stderr.trim()).toBe(
        `Herald cannot start: herald ${role} on PostgreSQL needs HERALD_SECRET, the same in every process (see README, Running at scale).`,
      );
    }
  });

  it('names the database it cannot reach', async () => {
    const refused = await run('serve', {
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
      HERALD_SECRET: 'a'.repeat(64),
      DATA_DIR: newDataDir(),
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^Herald cannot start: cannot migrate the PostgreSQL database of DATABASE_URL: Error: connect ECONNREFUSED 127\.0\.0\.1:1\n$/,
    );
  });
});
