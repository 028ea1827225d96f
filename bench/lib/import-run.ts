/**
 * One measured import, in a process of its own so its peak RSS is its own: migrates a fresh database, uploads the
 * file through the import service (as the multipart route does), starts it with the suggested mapping, waits for
 * the runner to finish, then times the first page of the list. Answers its figures to the parent over IPC.
 * Run by bench/import.ts with: <sqlite|postgres> <csv file> <data dir>
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import type { MultipartFile } from '@fastify/multipart';
import { sql } from 'kysely';
import pino from 'pino';
import { ImportRunner } from '../../apps/server/dist/contacts/import/runner.js';
import * as imports from '../../apps/server/dist/contacts/import/service.js';
import * as contacts from '../../apps/server/dist/contacts/service.js';
import { insertBenchAccount, openScratchDatabase } from './scratch-database.js';

export interface ImportFigures {
  rows: number;
  invalid: number;
  uploadSeconds: number;
  importSeconds: number;
  /** Of importSeconds: reading and staging the file, then the final transaction. */
  readSeconds: number;
  saveSeconds: number;
  /**
   * Per row, from the runner's log: CPU of the reader thread (parse, check, normalise, serialise), CPU of the main
   * thread while reading (staging on SQLite, handing batches to the driver on PostgreSQL) and in the final
   * transaction, and the wall time spent writing batches (on PostgreSQL: the server inserting them into the list).
   */
  readerCpuMicrosPerRow: number;
  readMainCpuMicrosPerRow: number;
  saveMainCpuMicrosPerRow: number;
  writeMicrosPerRow: number;
  /** PostgreSQL only: CPU of the server processes serving Herald's connections (a local server), per row; null otherwise. */
  serverCpuMicrosPerRow: number | null;
  rowsPerSecond: number;
  /** CPU of this process (both threads; on SQLite all the database work too) per row: the figure load does not skew. */
  cpuMicrosPerRow: number;
  peakRssMb: number;
  /** Bytes the process wrote to files (and sockets) during the import, in MB: on SQLite the WAL, the database and temporary files. */
  writtenMb: number;
  firstPageMs: number;
  pageMedianMs: number;
  searchMs: number;
}

const [dialect, csvPath, dataDir] = process.argv.slice(2) as ['sqlite' | 'postgres', string, string];
async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
}

const cpuMicros = (usage: NodeJS.CpuUsage) => usage.user + usage.system;

/** CPU (µs) of each server process behind a connection of Herald's pool, read from /proc: the server runs on this machine. */
async function serverCpu(): Promise<Map<number, number>> {
  const cpu = new Map<number, number>();
  if (dialect !== 'postgres') return cpu;
  // Holding as many connections as the pool has at once, long enough for it to hand out every one it keeps, names each
  // of their server processes.
  const held = Array.from({ length: 10 }, () =>
    sql<{ pid: number }>`select pg_backend_pid() as pid from pg_sleep(0.5)`.execute(db),
  );
  const rows = (await Promise.all(held)).flatMap((result) => result.rows);
  for (const { pid } of rows) {
    const fields = (await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '')).split(') ')[1]?.split(' ');
    // utime and stime, the 12th and 13th fields after the command name, in clock ticks of 10 ms.
    if (fields) cpu.set(pid, (Number(fields[11]) + Number(fields[12])) * 10_000);
  }
  return cpu;
}

function serverCpuSpent(before: Map<number, number>, after: Map<number, number>): number {
  let spent = 0;
  for (const [pid, micros] of after) spent += micros - (before.get(pid) ?? 0);
  return spent;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const { database, drop } = await openScratchDatabase(dialect, dataDir, 'import');
const { db } = database;
const now = Date.now();
const accountId = await insertBenchAccount(db, now, { time_zone_id: '044', avatar: 'avatar-1.svg', language: 'uk' });
/** The runner logs how long reading and the final transaction took once an import is done. */
const logs = new PassThrough();
const importDone = new Promise((resolve) =>
  logs.on('data', (line: Buffer) => {
    const entry = JSON.parse(line.toString());
    if (entry.msg === 'import done') resolve(entry);
  }),
);
const runner = new ImportRunner({
  db,
  dialect,
  holdConnection: database.holdConnection,
  dataDir,
  log: pino({ level: 'info' }, logs),
});
const deps = { db, dialect, dataDir, importMaxBytes: 1 << 30, runner };
const who = { accountId, language: 'en' as const, timeZoneId: '044' };
const list = await contacts.createList(deps, accountId, { name: 'Bench', defaultCountry: 'UA' });

const sizeBytes = (await stat(csvPath)).size;
const [uploaded, uploadMs] = await timed(() =>
  imports.receiveUpload(deps, who, list.id, {
    declaredBytes: sizeBytes,
    file: async () =>
      ({ filename: 'contacts.csv', mimetype: 'text/csv', file: createReadStream(csvPath) }) as unknown as MultipartFile,
  }),
);
/** Bytes this process has written so far (wchar in /proc/self/io). */
async function written(): Promise<number> {
  const io = await readFile('/proc/self/io', 'utf8').catch(() => '');
  return Number(/^wchar: (\d+)/m.exec(io)?.[1] ?? 0);
}

const writtenBefore = await written();
const serverCpuBefore = await serverCpu();
const cpuBefore = process.cpuUsage();
const [finished, importMs] = await timed(async () => {
  await imports.startImport(deps, who, uploaded.importId, { mapping: uploaded.preview.suggestedMapping, mode: 'add' });
  for (;;) {
    const state = await imports.getImport(deps, who, uploaded.importId);
    if (state.status !== 'running') return state;
    // Every 100 ms: polling every 20 ms cost a few µs of CPU per row imported, in Herald and in the PostgreSQL server.
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
});
const cpuSpent = cpuMicros(process.cpuUsage(cpuBefore));
const writtenDuring = (await written()) - writtenBefore;
// Once the job has ended (its statistics refreshed): while a statement holds one of the pool's connections, its process
// would go uncounted.
await runner.close();
const serverCpuAfter = await serverCpu();
const { readMs, readerCpuMs, readCpuMs, saveCpuMs, writeMs } = (await importDone) as Record<string, number>;
if (finished.status !== 'done') throw new Error(`import ended ${finished.status}: ${JSON.stringify(finished.error)}`);

const pageTimes: number[] = [];
for (let round = 0; round < 11; round++) {
  pageTimes.push((await timed(() => contacts.pageContacts(deps, accountId, list.id, {}, 1, 10)))[1]);
}
const [, searchMs] = await timed(() =>
  contacts.pageContacts(deps, accountId, list.id, { search: 'olena.shevchenko1234' }, 1, 10),
);

const figures: ImportFigures = {
  rows: finished.imported,
  invalid: finished.invalid,
  uploadSeconds: uploadMs / 1000,
  importSeconds: importMs / 1000,
  readSeconds: readMs / 1000,
  saveSeconds: (importMs - readMs) / 1000,
  readerCpuMicrosPerRow: (readerCpuMs! * 1000) / finished.rowsDone,
  readMainCpuMicrosPerRow: (readCpuMs! * 1000) / finished.rowsDone,
  saveMainCpuMicrosPerRow: (saveCpuMs! * 1000) / finished.rowsDone,
  writeMicrosPerRow: (writeMs! * 1000) / finished.rowsDone,
  serverCpuMicrosPerRow: dialect === 'postgres' ? serverCpuSpent(serverCpuBefore, serverCpuAfter) / finished.rowsDone : null,
  rowsPerSecond: Math.round(finished.rowsDone / (importMs / 1000)),
  cpuMicrosPerRow: cpuSpent / finished.rowsDone,
  // maxRSS is in kilobytes and covers this process's whole life: migration, upload, import and queries.
  peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  writtenMb: Math.round(writtenDuring / 1024 / 1024),
  firstPageMs: pageTimes[0]!,
  pageMedianMs: median(pageTimes.slice(1)),
  searchMs,
};
await drop();
process.send?.(figures);
