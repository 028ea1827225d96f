/**
 * An engine thread (herald serve on SQLite): a dispatcher with a database connection and provider channels of its
 * own, so sending uses another core and never holds up the API's event loop. Started by EngineThreads.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { sql } from 'kysely';
import { CampaignContent } from '../campaigns/content.js';
import { Tracking } from '../campaigns/tracking.js';
import { openDatabase } from '../db/database.js';
import { ApiTemplateContent } from '../messages/content.js';
import { ChannelPool } from '../providers/channel-pool.js';
import { Dispatcher } from './dispatcher.js';
import type { ThreadData, ThreadLog, ThreadNews, ThreadRequest } from './threads.js';

const data = workerData as ThreadData;
const port = parentPort!;
const secret = Buffer.from(data.secret);
const database = openDatabase({ sqliteFile: data.sqliteFile, engineOf: data.writeGate });
const pool = new ChannelPool(database.db, secret);
const post = (level: ThreadLog['level']) => (fields: { err?: unknown }, message?: string) => {
  const { err, ...rest } = fields;
  const log: ThreadLog = { level, fields: rest, message: message ?? '' };
  if (err !== undefined) log.error = err instanceof Error ? { message: err.message, stack: err.stack } : { message: String(err) };
  port.postMessage(log);
};
const engine = new Dispatcher({
  db: database.db,
  dialect: database.dialect,
  pool,
  content: new ApiTemplateContent(database.db, new CampaignContent(database.db, new Tracking(secret, data.publicUrl))),
  owner: data.owner,
  leaseMs: data.leaseMs,
  log: { info: post('info'), error: post('error') },
  onDrained: () => port.postMessage('drained' satisfies ThreadNews),
});

/** The API thread leaves checkpoints to the engine threads (app.ts): their commits make them, and so does this timer while they are idle. */
const CHECKPOINT_MS = 1000;
const checkpoints = setInterval(() => {
  sql`pragma wal_checkpoint(passive)`
    .execute(database.db)
    .catch((error: unknown) => post('error')({ err: error }, 'WAL checkpoint failed'));
}, CHECKPOINT_MS);

port.on('message', (request: ThreadRequest) => {
  if (request === 'wake') engine.notify();
  else if (request === 'stop') {
    clearInterval(checkpoints);
    void (async () => {
      await engine.stop();
      await pool.closeAll();
      await database.close();
      port.close();
    })();
  }
});
await engine.start();
port.postMessage('started' satisfies ThreadNews);
