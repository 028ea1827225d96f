#!/usr/bin/env node
/** herald serve | api | worker — one program, three roles (ARCHITECTURE.md, Processes). */
import './lib/heap.js';
import path from 'node:path';
import { buildApp } from './app.js';
import { createFirstAdmin } from './auth/service.js';
import { loadConfig } from './config.js';
import { seedSampleList } from './contacts/service.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { engineThreadCount } from './engine/threads.js';
import { lockDataDir } from './lib/data-dir-lock.js';
import { seedSandboxProviders } from './providers/service.js';
import { seedSampleTemplates } from './templates/service.js';

const ROLES = ['serve', 'api', 'worker'] as const;
type ProcessRole = (typeof ROLES)[number];

async function main(): Promise<void> {
  const role = (process.argv[2] ?? 'serve') as ProcessRole;
  if (!ROLES.includes(role)) {
    console.error(`usage: herald [${ROLES.join('|')}]`);
    process.exit(2);
  }
  // Processes of a scale-out share encrypted provider secrets: a key made up on one machine is unreadable on the others.
  if (role !== 'serve' && process.env.DATABASE_URL && !process.env.HERALD_SECRET) {
    refuse(`herald ${role} on PostgreSQL needs HERALD_SECRET, the same in every process (see README, Running at scale).`);
  }
  const config = loadConfigOrRefuse();
  const sqliteFile = path.join(config.dataDir, 'herald.db');
  // On SQLite one process owns the data directory; a second `serve` would hand back the live one's leases.
  const lock = config.databaseUrl ? undefined : lockDataDir(config.dataDir);
  if (lock === null && role === 'serve') {
    console.error(`Another Herald is already running on ${config.dataDir}: stop it first, or give this one another DATA_DIR.`);
    process.exit(1);
  }
  const database = openDatabase({ databaseUrl: config.databaseUrl, sqliteFile });
  await migrateToLatest(database).catch((error: Error) => refuse(error.message));

  const app = await buildApp({
    config,
    database,
    logger: { level: config.logLevel },
    serveConsole: role !== 'worker',
    runWorkers: role !== 'api',
    // Embedded mode sends from threads of its own, so the API's event loop keeps answering while a campaign goes out.
    ...(role === 'serve' && database.dialect === 'sqlite'
      ? { engineThreads: { count: config.engineThreads ?? engineThreadCount(), sqliteFile } }
      : {}),
    recoverLeases: lock !== null,
  });

  // Herald listens before it makes the first account: a port it cannot take must not swallow the one-time password.
  if (role !== 'worker') {
    await app.listen({ port: config.port, host: config.host }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') refuse(`PORT ${config.port} is in use by another program: stop it, or set another PORT.`);
      if (error.code === 'EACCES') refuse(`PORT ${config.port} needs privileges this user lacks: choose a port above 1023.`);
      throw error;
    });
  }
  const admin = await createFirstAdmin(database.db);
  if (admin) {
    if (config.seed) {
      await seedSandboxProviders({ db: database.db, pool: app.channels, secretKey: config.secret }, admin.accountId);
      await seedSampleList({ db: database.db, dialect: database.dialect }, admin.accountId, admin.email);
      await seedSampleTemplates(database.db, admin.accountId);
    }
    const line = '='.repeat(64);
    process.stdout.write(
      `\n${line}\n Herald first start: an admin account was created.\n  e-mail:   ${admin.email}\n  password: ${admin.password}\n This password is shown once; change it under Settings > Account.${config.seed ? '\n Sandbox e-mail and SMS providers, a sample list and templates are ready:\n send a first campaign now (Campaigns > New campaign).' : ''}\n${line}\n\n`,
    );
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  // Scale mode (REDIS_URL on PostgreSQL) sends through BullMQ; otherwise workers claim from the database.
  const queue = config.redisUrl && database.dialect === 'postgres' ? 'BullMQ on Redis' : 'database queue';
  if (role === 'worker') {
    await app.ready();
    app.log.info({ queue }, 'worker started');
    return;
  }
  app.log.info({ role, queue: role === 'api' ? undefined : queue }, `Herald console: ${config.publicUrl}`);
}

/** Stops a start that cannot work, saying why in one line (no stack: nothing is wrong with Herald). */
function refuse(message: string): never {
  console.error(`Herald cannot start: ${message}`);
  process.exit(1);
}

function loadConfigOrRefuse() {
  try {
    return loadConfig();
  } catch (error) {
    return refuse((error as Error).message);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
