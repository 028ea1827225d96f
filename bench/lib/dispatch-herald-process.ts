/**
 * Herald's side of bench/dispatch.ts, in a process of its own so the peak RSS is Herald's alone: opens the
 * seeded data directory, starts the campaign and the sending workers, waits for the campaign to be sent,
 * and reports the elapsed time, peak RSS and CPU used.
 */
import path from 'node:path';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { openDatabase } from '../../apps/server/src/db/database.js';

export interface HeraldJob {
  dataDir: string;
  databaseUrl?: string;
  campaignId: number;
  token: string;
}

export interface HeraldReport {
  elapsedMs: number;
  peakRssMb: number;
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
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
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
  const report: HeraldReport = { elapsedMs, peakRssMb: peakRss / 1024 / 1024, cpuMs: (cpu.user + cpu.system) / 1000 };
  process.send?.(report);
  await app.close();
  await database.close();
  process.disconnect();
});
