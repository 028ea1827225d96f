/**
 * Runs imports in the background of the process that started them. A reader thread parses and checks the file
 * while the job writes the valid rows, batch by batch, so that a failed or cancelled import leaves the list
 * exactly as it was: on PostgreSQL an import that adds goes straight into the list inside one long transaction
 * (other sessions go on reading and writing meanwhile), so the database merges while the file is still being
 * read; otherwise the rows are staged in a table of the import's own and one final transaction moves them into
 * the list (on SQLite a long write transaction would hold every other writer for the whole import). Progress
 * and a heartbeat are written every half second; cancelling is a flag in the database, so any API process can
 * cancel a job another one runs.
 */
import { on } from 'node:events';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ErrorKey, Language } from '@herald/shared';
import type { FastifyBaseLogger } from 'fastify';
import { type DatabaseHandle, type Db, type Dialect, isUniqueViolation } from '../../db/database.js';
import { type CountDelta, sumCounts, zeroCounts } from '../counts.js';
import * as q from '../queries.js';
import type { CopyTarget } from './copy-rows.js';
import { attributeNamesOf, type Mapping } from './normalise.js';
import type { ReadSettings } from './parse.js';
import type { ReaderJob, ReaderMessage, ReaderProgress, RunnerMessage, StagedBatch } from './reader.js';
import { threadCpuMs } from './thread-cpu.js';

const PROGRESS_EVERY_MS = 500;
/** A running import whose heartbeat is older than this lost its process. */
export const STALE_AFTER_MS = 60_000;
/** Uploads not imported (never started, failed or cancelled) are kept this long for another start. */
const UPLOAD_KEPT_MS = 7 * 24 * 60 * 60 * 1000;

export interface ImportJob {
  importId: number;
  accountId: number;
  listId: number;
  /** Absolute path of the upload. */
  filePath: string;
  /** Path of the report under DATA_DIR. */
  reportPath: string;
  sizeBytes: number;
  settings: ReadSettings;
  hasHeader: boolean;
  columnCount: number;
  mapping: Mapping;
  mode: q.ImportMode;
  defaultCountry: string | null;
  language: Language;
}

export interface RunnerDeps {
  db: Db;
  dialect: Dialect;
  holdConnection: DatabaseHandle['holdConnection'];
  dataDir: string;
  log: FastifyBaseLogger;
}

class ImportCancelled extends Error {}
class RunnerClosing extends Error {}
/** A copy met a contact already in the list. */
class CopyConflict extends Error {}

/** What the reader reported that ended the import. */
class ReaderFailed extends Error {
  constructor(readonly failure: Extract<ReaderMessage, { type: 'failed' }>) {
    super(failure.message);
  }
}

/** What a job has done so far, as its progress writes and its final update record it. */
class JobState {
  progress: ReaderProgress = { rowsDone: 0, invalid: 0, invalidSample: [], bytesRead: 0 };
  cancelRequested = false;
  /** Where the time went, for the log: the reader thread's CPU, and the time spent writing batches. */
  readerCpuMs = 0;
  writeMs = 0;

  constructor(private readonly sizeBytes: number) {}

  /** Rows in the whole file, extrapolated from the bytes read so far. */
  rowsTotal(): number {
    const { rowsDone, bytesRead } = this.progress;
    if (bytesRead === 0 || rowsDone === 0) return rowsDone;
    return Math.max(rowsDone, Math.round((rowsDone * this.sizeBytes) / bytesRead));
  }
}

/** The reader holds a few batches at a time; left unbounded, V8 would let its heap grow by a hundred MB and more. */
const READER_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 };

function startReader(job: ReaderJob): Worker {
  const options = { workerData: job, resourceLimits: READER_LIMITS };
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./reader.js', import.meta.url), options);
  // From the TypeScript sources (tests, tsx) the thread loads the reader through tsx, and packages from their sources.
  const reader = JSON.stringify(new URL('./reader.ts', import.meta.url).href);
  return new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${reader}); })`, {
    ...options,
    eval: true,
    execArgv: ['--conditions=source'],
  });
}

export class ImportRunner {
  readonly #jobs = new Map<number, Promise<void>>();
  #closing = false;

  constructor(private readonly deps: RunnerDeps) {}

  isRunningHere(importId: number): boolean {
    return this.#jobs.has(importId);
  }

  /** Starts a job that the caller has already marked running. */
  start(job: ImportJob): void {
    const run = this.#run(job)
      .catch((error) => this.deps.log.error({ err: error, importId: job.importId }, 'import bookkeeping failed'))
      .finally(() => this.#jobs.delete(job.importId));
    this.#jobs.set(job.importId, run);
  }

  /** Stops every job (each fails as interrupted and leaves its list untouched) and waits for them. */
  async close(): Promise<void> {
    this.#closing = true;
    await Promise.allSettled(this.#jobs.values());
  }

  /** Fails imports whose process is gone and removes uploads kept past their time. */
  async sweep(now = Date.now()): Promise<void> {
    const { db } = this.deps;
    for (const stale of await q.findStaleImports(db, now - STALE_AFTER_MS)) {
      const id = Number(stale.id);
      if (this.isRunningHere(id)) continue;
      if (await q.failStaleImport(db, id, now - STALE_AFTER_MS, now)) await q.dropStagingTable(db, id);
    }
    for (const upload of await q.findExpiredUploads(db, now - UPLOAD_KEPT_MS)) {
      await rm(path.join(this.deps.dataDir, upload.file_path!), { force: true });
      await q.updateImport(db, Number(upload.id), { file_path: null });
    }
  }

  async #run(job: ImportJob): Promise<void> {
    const { db, dialect } = this.deps;
    const state = new JobState(job.sizeBytes);
    let progressWrite: Promise<void> = Promise.resolve();
    const timer = setInterval(() => {
      progressWrite = progressWrite.then(() => this.#saveProgress(job, state));
    }, PROGRESS_EVERY_MS);
    let merged = false;
    const startedAt = performance.now();
    const cpuAtStart = threadCpuMs();
    let savingAt = 0;
    let cpuAtSaving: number | null = null;
    const startSaving = async () => {
      savingAt = performance.now();
      cpuAtSaving = threadCpuMs();
      await progressWrite;
      if ((await q.saveProgress(db, job.importId, this.#progress(state, 'saving'))) !== false) throw new ImportCancelled();
    };
    try {
      if (dialect === 'postgres' && job.mode === 'add') {
        try {
          await this.#addInOneTransaction(job, state, startSaving, true);
        } catch (error) {
          if (!(error instanceof CopyConflict)) throw error;
          await this.#addInOneTransaction(job, state, startSaving, false);
        }
      } else {
        await q.createStagingTable(db, dialect, job.importId);
        await this.#readFile(job, state, undefined, (batch) => q.stageRows(db, dialect, job.importId, batch));
        await startSaving();
        await db.transaction().execute(async (trx) => {
          await this.#holdList(trx, job);
          await this.#finish(trx, job, state, await q.mergeStaged(trx, dialect, { ...job, now: Date.now() }));
        });
      }
      merged = true;
    } catch (error) {
      await this.#fail(job, state, error);
    } finally {
      clearInterval(timer);
      await progressWrite;
      await q.dropStagingTable(db, job.importId);
    }
    if (merged) {
      const [readMs, saveMs, writeMs] = [savingAt - startedAt, performance.now() - savingAt, state.writeMs].map(Math.round);
      const cpuAtEnd = threadCpuMs();
      // This thread's CPU while the file was read (staging or sending batches) and in the final transaction.
      const readCpuMs = cpuAtStart === null || cpuAtSaving === null ? null : cpuAtSaving - cpuAtStart;
      const saveCpuMs = cpuAtSaving === null || cpuAtEnd === null ? null : cpuAtEnd - cpuAtSaving;
      const times = { readMs, saveMs, readerCpuMs: state.readerCpuMs, writeMs, readCpuMs, saveCpuMs };
      this.deps.log.info({ importId: job.importId, rows: state.progress.rowsDone, ...times }, 'import done');
      // The import is done whatever happens from here: this only tidies up.
      await rm(job.filePath, { force: true });
      await q.refreshStatistics(db, dialect);
    }
  }

  /**
   * PostgreSQL add mode: the rows go into the list as the file is read, in one transaction. Into an empty list they
   * are copied (`copyIfEmpty`); a contact added to the list meanwhile fails a copy, and the caller starts the import
   * over with conflicts skipped.
   */
  async #addInOneTransaction(job: ImportJob, state: JobState, startSaving: () => Promise<void>, copyIfEmpty: boolean) {
    if (!this.deps.holdConnection) throw new Error('an add import on PostgreSQL needs a connection of its own');
    const connection = await this.deps.holdConnection();
    try {
      const trx = await connection.db.startTransaction().execute();
      let copying = false;
      try {
        await this.#holdList(trx, job);
        copying = copyIfEmpty && (await q.listIsEmpty(trx, job.listId));
        const mergeJob = { ...job, now: Date.now() };
        const copyInto = copying ? { accountId: job.accountId, listId: job.listId, now: mergeJob.now } : undefined;
        let staged = 0;
        let added = zeroCounts;
        await this.#readFile(job, state, copyInto, async (batch) => {
          added = sumCounts(added, await q.insertBatch(trx, mergeJob, batch, copying ? connection : null));
          staged += batch.count;
        });
        await startSaving();
        const counts = { imported: added.total, updated: 0, removed: 0, duplicates: staged - added.total };
        await this.#finish(trx, job, state, counts, added);
        await trx.commit().execute();
      } catch (error) {
        await trx.rollback().execute();
        throw copying && isUniqueViolation(error) ? new CopyConflict() : error;
      }
    } finally {
      connection.release();
    }
  }

  /** For the transaction that brings the rows in; a list deleted before it took the import with it. */
  async #holdList(trx: Db, job: ImportJob): Promise<void> {
    if (!(await q.holdList(trx, this.deps.dialect, job.accountId, job.listId))) throw new Error('the list is gone');
  }

  /**
   * The list's counts (`added` to them, else counted afresh), its attribute names and the import's outcome, in the
   * transaction that brought the rows in.
   */
  async #finish(trx: Db, job: ImportJob, state: JobState, counts: q.MergeCounts, added?: CountDelta): Promise<void> {
    if (added) await q.addToCounts(trx, job.accountId, job.listId, added);
    else await q.recountList(trx, job.accountId, job.listId);
    await this.#addAttributeNames(trx, job);
    await q.updateImport(trx, job.importId, {
      ...this.#progress(state, null),
      ...counts,
      rows_total: state.progress.rowsDone,
      status: 'done',
      file_path: null,
      finished_at: Date.now(),
    });
  }

  /** Writes the reader's batches as they come; the reader stays at most two batches ahead. */
  async #readFile(
    job: ImportJob,
    state: JobState,
    copyInto: CopyTarget | undefined,
    write: (batch: StagedBatch) => Promise<void>,
  ): Promise<void> {
    const reader = startReader({
      filePath: job.filePath,
      reportPath: path.join(this.deps.dataDir, job.reportPath),
      language: job.language,
      settings: job.settings,
      hasHeader: job.hasHeader,
      columnCount: job.columnCount,
      mapping: job.mapping,
      defaultCountry: job.defaultCountry,
      copyInto,
    });
    const exited = new Promise((resolve) => reader.once('exit', resolve));
    let ended = false;
    try {
      for await (const [message] of on(reader, 'message', { close: ['exit'] }) as AsyncIterable<[ReaderMessage]>) {
        state.progress = message.progress;
        if (message.type === 'failed') throw new ReaderFailed(message);
        if (message.type === 'done') {
          state.readerCpuMs = message.cpuMs;
          ended = true;
          break;
        }
        const writing = performance.now();
        await write(message.batch);
        state.writeMs += performance.now() - writing;
        reader.postMessage({ type: 'written' } satisfies RunnerMessage);
        if (state.cancelRequested) throw new ImportCancelled();
        if (this.#closing) throw new RunnerClosing();
      }
      if (!ended) throw new Error('the import reader stopped without a word');
    } finally {
      // A reader asked to stop closes its report before it ends; nothing is left half written.
      if (!ended) reader.postMessage({ type: 'stop' } satisfies RunnerMessage);
      await exited;
    }
  }

  #progress(state: JobState, phase: 'reading' | 'saving' | null) {
    return {
      phase,
      rows_done: state.progress.rowsDone,
      rows_total: state.rowsTotal(),
      invalid: state.progress.invalid,
      invalid_sample: JSON.stringify(state.progress.invalidSample),
      heartbeat_at: Date.now(),
    };
  }

  async #saveProgress(job: ImportJob, state: JobState): Promise<void> {
    try {
      const cancelRequested = await q.saveProgress(this.deps.db, job.importId, this.#progress(state, 'reading'));
      if (cancelRequested) state.cancelRequested = true;
    } catch (error) {
      // A missed progress write only delays the numbers the console shows.
      this.deps.log.warn({ err: error, importId: job.importId }, 'import progress not saved');
    }
  }

  async #addAttributeNames(db: Db, job: ImportJob): Promise<void> {
    const added = attributeNamesOf(job.mapping);
    if (added.length === 0) return;
    const list = await q.findList(db, job.accountId, job.listId);
    const names = new Set<string>([...JSON.parse(list?.attribute_names ?? '[]'), ...added]);
    await q.setAttributeNames(db, job.accountId, job.listId, [...names]);
  }

  async #fail(job: ImportJob, state: JobState, error: unknown): Promise<void> {
    const cancelled = error instanceof ImportCancelled;
    let key: ErrorKey | null = null;
    let params: Record<string, string | number> | null = null;
    if (error instanceof ReaderFailed && error.failure.key) {
      key = error.failure.key;
      params = error.failure.params;
    } else if (error instanceof RunnerClosing) {
      key = 'import.interrupted';
    } else if (!cancelled) {
      key = 'import.failed';
      this.deps.log.error({ err: error, importId: job.importId }, 'import failed');
    }
    await q.updateImport(this.deps.db, job.importId, {
      ...this.#progress(state, null),
      status: cancelled ? 'cancelled' : 'failed',
      error: key,
      error_params: params && JSON.stringify(params),
      finished_at: Date.now(),
    });
  }
}
