/**
 * One measured import, in a process of its own so its peak RSS is its own: migrates a fresh database, uploads the
 * file through the import service (as the multipart route does), starts it with the suggested mapping, waits for
 * the runner to finish, then times the first page of the list. Answers its figures to the parent over IPC.
 * Run by bench/import.ts with: <sqlite|postgres> <csv file> <data dir>
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { MultipartFile } from '@fastify/multipart';
import pg from 'pg';
import pino from 'pino';
import { ImportRunner } from '../../apps/server/src/contacts/import/runner.js';
import * as imports from '../../apps/server/src/contacts/import/service.js';
import * as contacts from '../../apps/server/src/contacts/service.js';
import { type DatabaseHandle, openDatabase } from '../../apps/server/src/db/database.js';
import { migrateToLatest } from '../../apps/server/src/db/migrate.js';

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
  rowsPerSecond: number;
  /** CPU of this process (both threads; on SQLite all the database work too) per row: the figure load does not skew. */
  cpuMicrosPerRow: number;
  peakRssMb: number;
  firstPageMs: number;
  pageMedianMs: number;
  searchMs: number;
}

const [dialect, csvPath, dataDir] = process.argv.slice(2) as ['sqlite' | 'postgres', string, string];
const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `bench_import_${process.pid}`;

async function openBenchDatabase(): Promise<DatabaseHandle> {
  if (dialect === 'sqlite') return openDatabase({ sqliteFile: path.join(dataDir, 'herald.db') });
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  return openDatabase({ databaseUrl, pgSchema: schema });
}

async function dropBenchSchema(): Promise<void> {
  if (dialect !== 'postgres') return;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`drop schema ${schema} cascade`);
  await admin.end();
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
}

const cpuMicros = (usage: NodeJS.CpuUsage) => usage.user + usage.system;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const database = await openBenchDatabase();
await migrateToLatest(database);
const { db } = database;
const now = Date.now();
const account = await db
  .insertInto('accounts')
  .values({
    email: 'bench@example.com',
    password_hash: '-',
    time_zone_id: '044',
    avatar: 'avatar-1.svg',
    language: 'uk',
    profile: 'site',
    created_at: now,
    updated_at: now,
  })
  .returning('id')
  .executeTakeFirstOrThrow();
const accountId = Number(account.id);
/** The runner logs how long reading and the final transaction took once an import is done. */
const logs = new PassThrough();
const importDone = new Promise((resolve) =>
  logs.on('data', (line: Buffer) => {
    const entry = JSON.parse(line.toString());
    if (entry.msg === 'import done') resolve(entry);
  }),
);
const runner = new ImportRunner({ db, dialect, dataDir, log: pino({ level: 'info' }, logs) });
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
const cpuBefore = process.cpuUsage();
const [finished, importMs] = await timed(async () => {
  await imports.startImport(deps, who, uploaded.importId, { mapping: uploaded.preview.suggestedMapping, mode: 'add' });
  for (;;) {
    const state = await imports.getImport(deps, who, uploaded.importId);
    if (state.status !== 'running') return state;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
});
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
  rowsPerSecond: Math.round(finished.rowsDone / (importMs / 1000)),
  cpuMicrosPerRow: cpuMicros(process.cpuUsage(cpuBefore)) / finished.rowsDone,
  // maxRSS is in kilobytes and covers this process's whole life: migration, upload, import and queries.
  peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  firstPageMs: pageTimes[0]!,
  pageMedianMs: median(pageTimes.slice(1)),
  searchMs,
};
await runner.close();
await database.close();
await dropBenchSchema();
process.send?.(figures);
