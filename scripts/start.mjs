// `npm start`: installs what is missing, builds what is stale, then runs `herald serve`.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureBuilt, ensureInstalled, root, serverEnv, serverNodeArgs } from './lib.mjs';

ensureInstalled();
ensureBuilt();
const role = process.argv[2] ?? 'serve';
const child = spawn(process.execPath, [...serverNodeArgs, path.join(root, 'apps/server/dist/main.js'), role], {
  stdio: 'inherit',
  env: serverEnv,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 1)));
