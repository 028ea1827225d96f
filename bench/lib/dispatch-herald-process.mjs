// Herald's side of bench/dispatch.ts: the built server (`npm run build` first) in a plain node process, so the peak
// RSS is Herald's own (engine threads included), as in production. Opens the seeded data directory, starts the
// sending workers and then the campaign, waits for the campaign to be sent, and reports elapsed time, RSS and CPU. Receives
// { dataDir, campaignId, token }; answers { elapsedMs, readyRssMb, peakRssMb, peakHeapMb, cpuMs }.
import '../../apps/server/dist/lib/heap.js';
import path from 'node:path';
import { buildApp } from '../../apps/server/dist/app.js';
import { loadConfig } from '../../apps/server/dist/config.js';
import { openDatabase } from '../../apps/server/dist/db/database.js';
import { engineThreadCount } from '../../apps/server/dist/engine/threads.js';

const MB = 1024 * 1024;

process.once('message', async (job) => {
  const config = {
    ...loadConfig({ DATA_DIR: job.dataDir, HERALD_SEED: '0', LOG_LEVEL: 'warn' }),
    publicUrl: 'http://herald.bench',
  };
  const sqliteFile = path.join(job.dataDir, 'herald.db');
  const database = openDatabase({ sqliteFile });
  // As `herald serve` runs it: the engine in threads of its own (BENCH_ENGINE_THREADS=0 keeps it on the main thread).
  const threads = Number(process.env.BENCH_ENGINE_THREADS ?? engineThreadCount());
  const app = await buildApp({
    config,
    database,
    runWorkers: false,
    ...(threads > 0 ? { engineThreads: { count: threads, sqliteFile } } : {}),
  });
  await app.ready();
  // Sending workers run before the campaign starts, as in `herald serve`: their start-up is not the campaign's time.
  await app.engine.start();
  app.campaigns.start();
  const readyRss = process.memoryUsage().rss;
  let peakRss = readyRss;
  let peakHeap = 0;
  // process.memoryUsage() walks the heap's spaces; the RSS alone is cheap enough to read every 100 ms.
  let samples = 0;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
    if (++samples % 10 === 0) peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
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
  process.send?.({
    elapsedMs,
    readyRssMb: readyRss / MB,
    peakRssMb: peakRss / MB,
    peakHeapMb: peakHeap / MB,
    cpuMs: (cpu.user + cpu.system) / 1000,
  });
  await app.close();
  await database.close();
  process.disconnect();
});
