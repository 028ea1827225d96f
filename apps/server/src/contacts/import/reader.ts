/**
 * The worker thread that reads an import's file, so parsing and normalising (most of an import's CPU) run on a
 * core of their own while the runner writes to the database: it checks every record, writes the report of
 * invalid rows, and hands the valid ones over in batches, never more than two ahead of the runner.
 */
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { ErrorKey, Language } from '@herald/shared';
import { type CountDelta, countsOf, sumCounts, zeroCounts } from '../counts.js';
import { type CopyTarget, copyRows } from './copy-rows.js';
import { compileMapping, type Mapping, normaliseRecord, type RowFailure, type StagedRow } from './normalise.js';
import { openRecordBatches, type ReadSettings, UnreadableFileError } from './parse.js';
import { ReportWriter } from './report.js';
import { SeenKeys } from './seen-keys.js';
import { threadCpuMs } from './thread-cpu.js';

/** Rows per batch: large enough to amortise a statement, small enough to keep memory flat. */
const BATCH_ROWS = 5000;
/** Batches handed over and not yet written. */
const MAX_AHEAD = 2;
/** Invalid rows kept on the import itself, for the console to show without downloading the report. */
const INVALID_SAMPLE_ROWS = 20;

export interface ReaderJob {
  filePath: string;
  /** Absolute path of the report to write. */
  reportPath: string;
  language: Language;
  settings: ReadSettings;
  hasHeader: boolean;
  columnCount: number;
  mapping: Mapping;
  defaultCountry: string | null;
  /** PostgreSQL, into an empty list: the fresh rows come as COPY text for this list. */
  copyInto?: CopyTarget | undefined;
}

export interface InvalidRow {
  line: number;
  key: ErrorKey;
  params: Record<string, string | number>;
}

export interface ReaderProgress {
  rowsDone: number;
  invalid: number;
  invalidSample: InvalidRow[];
  bytesRead: number;
}

/**
 * A batch of valid rows as texts the databases read as they are: JSON arrays of row arrays in file order (SQLite's
 * jsonb_each, PostgreSQL's jsonb_array_elements) or COPY text. One string crosses between the threads instead of
 * thousands of small arrays, and the runner has nothing left to convert.
 */
export interface StagedBatch {
  count: number;
  /**
   * For a copy (ReaderJob.copyInto), as COPY text, the rows whose e-mail and phone no earlier row of the file has;
   * otherwise every row.
   */
  fresh: string | null;
  /** For a copy, the rows whose e-mail or phone an earlier row of the file may have (seen-keys.ts). */
  repeats: string | null;
  /** For a copy (which cannot say), what the fresh rows add to the list's counts. */
  freshCounts: CountDelta;
}

export type ReaderMessage =
  | { type: 'rows'; batch: StagedBatch; progress: ReaderProgress }
  /** cpuMs: the reader thread's CPU time (its working time where the system does not tell), for the log. */
  | { type: 'done'; progress: ReaderProgress; cpuMs: number }
  /** key is null for a failure of Herald's own rather than of the file. */
  | { type: 'failed'; progress: ReaderProgress; key: ErrorKey | null; params: Record<string, string | number>; message: string };

/** `written` acknowledges a batch; `stop` asks the reader to close its report and end. */
export type RunnerMessage = { type: 'written' } | { type: 'stop' };

function stagedBatch(fresh: StagedRow[], repeats: StagedRow[], copyInto: CopyTarget | undefined): StagedBatch {
  const json = (rows: StagedRow[]) => (rows.length === 0 ? null : JSON.stringify(rows));
  const batch = { count: fresh.length + repeats.length, repeats: json(repeats) };
  if (!copyInto || fresh.length === 0) return { ...batch, fresh: json(fresh), freshCounts: zeroCounts };
  const freshCounts = fresh.reduce(
    (counts, [, email, phone, , , , , status]) => sumCounts(counts, countsOf({ email, phone, status: status ?? 'active' })),
    zeroCounts,
  );
  return { ...batch, fresh: copyRows(fresh, copyInto), freshCounts };
}

async function read(job: ReaderJob, port: NonNullable<typeof parentPort>): Promise<void> {
  const progress: ReaderProgress = { rowsDone: 0, invalid: 0, invalidSample: [], bytesRead: 0 };
  let ahead = 0;
  let stopped = false;
  let wake: (() => void) | null = null;
  port.on('message', (message: RunnerMessage) => {
    if (message.type === 'written') ahead--;
    else stopped = true;
    wake?.();
  });

  const report = ReportWriter.open(job.reportPath, job.language, job.settings.separator);
  const reader = openRecordBatches(job.filePath, job.settings);
  const mapping = compileMapping(job.mapping);
  // Only a copy needs to know the rows that may repeat an earlier one; every other way in skips conflicts anyway.
  const seenKeys = job.copyInto ? new SeenKeys() : null;
  let fresh: StagedRow[] = [];
  let repeats: StagedRow[] = [];
  const handOver = async () => {
    progress.bytesRead = reader.bytesRead();
    port.postMessage({ type: 'rows', batch: stagedBatch(fresh, repeats, job.copyInto), progress } satisfies ReaderMessage);
    fresh = [];
    repeats = [];
    ahead++;
    await report.flush();
    while (ahead >= MAX_AHEAD && !stopped) await new Promise<void>((resolve) => (wake = resolve));
  };
  const invalid = (line: number, failure: RowFailure, fields: string[]) => {
    progress.invalid++;
    if (progress.invalidSample.length < INVALID_SAMPLE_ROWS) progress.invalidSample.push({ line, ...failure });
    report.add(line, failure, fields);
  };

  try {
    let header = job.hasHeader;
    reading: for await (const records of reader.batches) {
      for (const record of records) {
        if (stopped) break reading;
        if (header) {
          header = false;
          continue;
        }
        progress.rowsDone++;
        if (record.unreadable) {
          invalid(record.line, { key: 'import.row.badEncoding', params: { encoding: job.settings.encoding } }, record.fields);
        } else if (record.fields.length !== job.columnCount) {
          invalid(
            record.line,
            { key: 'import.row.columnCount', params: { expected: job.columnCount, found: record.fields.length } },
            record.fields,
          );
        } else {
          const row = normaliseRecord(record.fields, record.line, mapping, job.defaultCountry);
          if (Array.isArray(row)) {
            (seenKeys?.add(row[1], row[2]) ? repeats : fresh).push(row);
            if (fresh.length + repeats.length === BATCH_ROWS) await handOver();
          } else {
            invalid(record.line, row, record.fields);
          }
        }
      }
    }
    if (fresh.length + repeats.length > 0 && !stopped) await handOver();
    progress.bytesRead = reader.bytesRead();
    await report.close();
    const cpuMs = Math.round(threadCpuMs() ?? performance.eventLoopUtilization().active);
    port.postMessage({ type: 'done', progress, cpuMs } satisfies ReaderMessage);
  } catch (error) {
    await report.close();
    const known = error instanceof UnreadableFileError;
    port.postMessage({
      type: 'failed',
      progress,
      key: known ? error.key : null,
      params: known ? error.params : {},
      message: String(error),
    } satisfies ReaderMessage);
  } finally {
    port.close();
  }
}

if (!isMainThread && parentPort) await read(workerData as ReaderJob, parentPort);
