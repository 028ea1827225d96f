/**
 * Herald's side of bench/dispatch.ts, in a process of its own so the peak RSS is Herald's alone: opens the
 * seeded data directory, starts the campaign and the sending workers, waits for the campaign to be sent,
 * and reports the elapsed time, peak RSS and CPU used.
 */
import path from 'node:path';
import type { buildApp as BuildApp } from '../../apps/server/src/app.js';
import type { loadConfig as LoadConfig } from '../../apps/server/src/config.js';
import type { openDatabase as OpenDatabase } from '../../apps/server/src/db/database.js';

// The built server by default, as Herald runs in production (tsx's on-the-fly compiling adds ~60 MB of RSS).
const server = process.env.BENCH_FROM_SOURCE ? '../../apps/server/src' : '../../apps/server/dist';
const { buildApp } = (await import(`${server}/app.js`)) as { buildApp: typeof BuildApp };
const { loadConfig } = (await import(`${server}/config.js`)) as { loadConfig: typeof LoadConfig };
const { openDatabase } = (await import(`${server}/db/database.js`)) as { openDatabase: typeof OpenDatabase };

export interface HeraldJob {
  dataDir: string;
  databaseUrl?: string;
  campaignId: number;
  token: string;
}

export interface HeraldReport {
  elapsedMs: number;
  readyRssMb: number;
  peakRssMb: number;
  peakHeapMb: number;
  cpuMs: number;
}

process.once('message', async (job: HeraldJob) => {
  const config = {
    ...loadConfig({ DATA_DIR: job.dataDir, HERALD_SEED: '0', LOG_LEVEL: 'warn' }),
    publicUrl: 'http://herald.bench',
  };
  const database = openDatabase({ databaseUrl: job.databaseUrl, sqliteFile: path.join(job.dataDir, 'herald.db') });
  const app = await buildApp({ config, database, runWorkers: false });
  await app.ready();
  const readyRss = process.memoryUsage().rss;
  let peakRss = readyRss;
  let peakHeap = 0;
  const sampler = setInterval(() => {
    const memory = process.memoryUsage();
    peakRss = Math.max(peakRss, memory.rss);
    peakHeap = Math.max(peakHeap, memory.heapUsed);
  }, 100);
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const start = await app.inject({
    method: 'POST',
    url: `/api/data/campaigns/${job.campaignId}/start`,
    headers: { 'x-token': job.token },
    payload: {},
  });
  if (start.statusCode !== 200) throw new Error(`start: ${start.body}`);
  await app.engine.start();
  app.campaigns.start();
  for (;;) {
    const row = await database.db
      .selectFrom('campaigns')
      .select('state')
      .where('id', '=', job.campaignId)
      .executeTakeFirstOrThrow();
    if (row.state === 'sent') break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const elapsedMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  clearInterval(sampler);
  const MB = 1024 * 1024;
  const report: HeraldReport = {
    elapsedMs,
    readyRssMb: readyRss / MB,
    peakRssMb: peakRss / MB,
    peakHeapMb: peakHeap / MB,
    cpuMs: (cpu.user + cpu.system) / 1000,
  };
  process.send?.(report);
  await app.close();
  await database.close();
  process.disconnect();
});
