// Shared steps of the start and test commands: install what is missing, rebuild what is stale.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/**
 * Node options Herald's server runs with (also in deploy/): a 2 MB semi-space instead of 16 MB keeps ~40 MB of young
 * generation out of the resident memory; the API's garbage is short-lived and is collected as well.
 */
export const serverNodeArgs = ['--max-semi-space-size=2'];
/**
 * The environment Herald's server runs with (also in deploy/): glibc gives each thread that allocates (the engine's,
 * libuv's pool) a malloc arena of its own, and the freed memory scattered over them stays resident; two arenas hold a
 * campaign's peak ~20 MB lower at the same speed. A value already set is kept.
 */
export const serverEnv = { ...process.env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2' };
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

/** Starts a command with its output going to a file; resolves with its exit status. */
export function runInBackground(command, args, logFile, options = {}) {
  const output = openSync(logFile, 'w');
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', output, output], ...options });
  closeSync(output);
  return new Promise((resolve) => {
    child.on('error', () => resolve(1));
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

export function mustRun(command, args, options = {}) {
  const status = run(command, args, options);
  if (status !== 0) {
    console.error(`\n${command} ${args.join(' ')} failed with exit code ${status}`);
    process.exit(status);
  }
}

function newestMtime(dir) {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    const mtime = entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs;
    if (mtime > newest) newest = mtime;
  }
  return newest;
}

function mtime(file) {
  return existsSync(file) ? statSync(file).mtimeMs : 0;
}

/** Installs from the lock file when node_modules is missing or older than it. */
export function ensureInstalled() {
  const installed = path.join(root, 'node_modules/.package-lock.json');
  if (mtime(installed) >= mtime(path.join(root, 'package-lock.json'))) return;
  console.log('Installing dependencies (first run builds better-sqlite3, about 2 minutes)...');
  // npm 11 refuses `npm ci` on this lock (it wants every platform's optional biome binary), so install from it.
  mustRun(npm, ['install', '--no-audit', '--no-fund']);
}

const WORKSPACES = ['packages/shared', 'packages/sdk', 'apps/server', 'apps/web'];
const BUILD_STAMP = path.join(root, 'node_modules/.herald-build-stamp');

/** Rebuilds when any workspace's sources are newer than the last successful build. */
export function ensureBuilt() {
  const built = mtime(BUILD_STAMP);
  const outputsPresent =
    existsSync(path.join(root, 'apps/server/dist/main.js')) && existsSync(path.join(root, 'apps/web/dist/index.html'));
  const stale = !outputsPresent || WORKSPACES.some((dir) => newestMtime(path.join(root, dir)) > built);
  if (!stale) return;
  console.log('Building Herald...');
  mustRun(npm, ['run', 'build']);
  writeFileSync(BUILD_STAMP, new Date().toISOString());
}
