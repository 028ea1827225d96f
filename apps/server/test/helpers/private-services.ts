/**
 * PostgreSQL and Redis instances of a test's own, on free loopback ports in a temp directory, so a fault test can
 * stop and restart them without touching the machine's shared servers that other tests use.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';
/** PostgreSQL refuses to run as root: as root, its commands run as this OS user. */
const PG_USER = 'postgres';

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.connect(port, '127.0.0.1');
  });
}

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

function pgCommand(binary: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  const command = path.join(PG_BIN, binary);
  return asRoot ? run('runuser', ['-u', PG_USER, '--', command, ...args]) : run(command, args);
}

export interface PrivatePostgres {
  port: number;
  /** The `postgres` database of the instance, trust auth. */
  url: string;
  /** `fast` ends sessions and shuts down cleanly; `immediate` aborts like a crash (recovery on the next start). */
  stop(mode: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * initdb + pg_ctl into a temp directory: a PostgreSQL instance only this test uses. fsync is off (an immediate stop
 * kills PostgreSQL, not the machine), but commits stay synchronous, or an immediate stop would lose committed statuses.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const dir = mkdtempSync(path.join(tmpdir(), 'herald-pg-'));
  if (asRoot) {
    const { stdout } = await run('id', ['-u', PG_USER]);
    const { stdout: group } = await run('id', ['-g', PG_USER]);
    chownSync(dir, Number(stdout.trim()), Number(group.trim()));
  }
  const data = path.join(dir, 'data');
  const port = await freePort();
  await pgCommand('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);
  const options = [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    `-c unix_socket_directories=${dir}`,
    '-c fsync=off',
    '-c full_page_writes=off',
    '-c shared_buffers=32MB',
    '-c max_connections=100',
  ].join(' ');
  const start = async () => {
    await pgCommand('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'postgres.log'), '-w', '-t', '60', 'start']);
  };
  await start();
  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop: async (mode) => {
      await pgCommand('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '60', 'stop']);
    },
    close: async () => {
      await pgCommand('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface PrivateRedis {
  port: number;
  url: string;
  /** Kills the server (nothing is persisted, so its keys are gone, as after a crash). */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** A redis-server without persistence on a free port. */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let server: ChildProcess | undefined;
  const start = async () => {
    server = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    await until(() => portOpen(port), 20_000, `redis-server on port ${port}`);
  };
  const stop = async () => {
    const running = server;
    server = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  return { port, url: `redis://127.0.0.1:${port}`, start, stop, close: stop };
}
