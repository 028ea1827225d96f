/** Starting and stopping the processes a benchmark measures, all on loopback. */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverEnv, serverNodeArgs } from '../../scripts/lib.mjs';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export async function waitForHealth(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${url} not healthy after ${timeoutMs} ms`);
}

/**
 * Starts the built Herald (`npm run build` first) with a data directory of its own, in `role` (serve by default);
 * `nodeArgs` go to node (e.g. --cpu-prof).
 */
export async function startHerald(
  port: number,
  env: Record<string, string> = {},
  { role = 'serve', nodeArgs = [] }: { role?: 'serve' | 'api'; nodeArgs?: string[] } = {},
) {
  const dataDir = env.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'herald-bench-'));
  const started = performance.now();
  const child = spawn(process.execPath, [...serverNodeArgs, ...nodeArgs, path.join(repoRoot, 'apps/server/dist/main.js'), role], {
    env: {
      ...serverEnv,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      HERALD_SEED: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  await waitForHealth(`http://127.0.0.1:${port}/api/health`);
  return { child, dataDir, startMs: performance.now() - started, output: () => output };
}

export async function startBareFastify(port: number): Promise<ChildProcess> {
  const child = fork(path.join(repoRoot, 'bench/lib/bare-fastify.mjs'), { env: { ...process.env, PORT: String(port) } });
  await new Promise((resolve) => child.once('message', resolve));
  return child;
}

export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
