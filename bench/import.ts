/**
 * Contact import: a generated CSV (e-mail, phone, name, two attributes; one phone in five written the national way)
 * imported into SQLite and into PostgreSQL through the import service (upload and preview, start, the background
 * runner, the final merge), each in a child process of its own so its peak RSS is its own. The baseline, measured
 * in the same run, is the bare csv-parse read of the same file. Also times the first page of the imported list.
 * Goals: ≥ 100,000 rows/s, peak RSS ≤ 300 MB, list page ≤ 50 ms.
 * Herald runs from its build, as in production (from the sources, tsx would compile the reader thread's modules as
 * the import starts). Run: npm run build -w packages/shared -w apps/server, then
 *      npx tsx bench/import.ts [--rows N] [--only sqlite|postgres]
 * (PostgreSQL at DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test, in a schema created and dropped here)
 */
import { fork } from 'node:child_process';
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse';
import { writeContactsCsv } from './lib/contacts-csv.js';
import type { ImportFigures } from './lib/import-run.js';
import { repoRoot } from './lib/processes.js';

const rowsFlag = process.argv.indexOf('--rows');
const ROWS = rowsFlag === -1 ? 1_000_000 : Number(process.argv[rowsFlag + 1]);
const onlyFlag = process.argv.indexOf('--only');
const DIALECTS = onlyFlag === -1 ? (['sqlite', 'postgres'] as const) : ([process.argv[onlyFlag + 1]] as ['sqlite' | 'postgres']);
const GOAL_ROWS_PER_SECOND = 100_000;
const GOAL_RSS_MB = 300;
const GOAL_PAGE_MS = 50;

const workDir = mkdtempSync(path.join(tmpdir(), 'herald-bench-import-'));
const csvPath = path.join(workDir, 'contacts.csv');

async function bareParseRate(): Promise<number> {
  const started = performance.now();
  let rows = 0;
  for await (const _record of createReadStream(csvPath).pipe(parse({ relax_column_count: true }))) rows++;
  return rows / ((performance.now() - started) / 1000);
}

function runImport(dialect: 'sqlite' | 'postgres'): Promise<ImportFigures> {
  const dataDir = mkdtempSync(path.join(workDir, `${dialect}-`));
  const child = fork(path.join(repoRoot, 'bench/lib/import-run.ts'), [dialect, csvPath, dataDir], {
    execArgv: ['--import', 'tsx'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (figures) => resolve(figures as ImportFigures));
    child.once('exit', (code) => reject(new Error(`${dialect} import process exited with ${code}`)));
  });
}

const fmt = (value: number) => Math.round(value).toLocaleString('en-US');
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');

try {
  const bytes = await writeContactsCsv(csvPath, ROWS);
  console.log(`generated ${fmt(ROWS)} rows, ${(bytes / 1024 / 1024).toFixed(1)} MB`);
  const baseline = await bareParseRate();
  console.log(`baseline: bare csv-parse read ${fmt(baseline)} rows/s`);
  const results: string[] = [];
  for (const dialect of DIALECTS) {
    const loadBefore = load();
    const figures = await runImport(dialect);
    const server =
      figures.serverCpuMicrosPerRow === null
        ? ''
        : `, PostgreSQL server CPU ${figures.serverCpuMicrosPerRow.toFixed(1)} µs per row`;
    const ratio = figures.rowsPerSecond / baseline;
    console.log(
      `${dialect}: ${fmt(figures.rows)} imported (${figures.invalid} invalid) in ${figures.importSeconds.toFixed(1)} s = ` +
        `${fmt(figures.rowsPerSecond)} rows/s, ${ratio.toFixed(2)}x baseline, ${figures.cpuMicrosPerRow.toFixed(1)} µs CPU per row in Herald's process (reading ${figures.readSeconds.toFixed(1)} s, ` +
        `final transaction ${figures.saveSeconds.toFixed(1)} s); per row: reader thread CPU ${figures.readerCpuMicrosPerRow.toFixed(1)} µs, ` +
        `main thread CPU while reading ${figures.readMainCpuMicrosPerRow.toFixed(1)} µs and in the final transaction ` +
        `${figures.saveMainCpuMicrosPerRow.toFixed(1)} µs, batch writes ${figures.writeMicrosPerRow.toFixed(1)} µs wall${server}; ` +
        `upload and preview ${figures.uploadSeconds.toFixed(1)} s; ` +
        `peak RSS ${figures.peakRssMb} MB; ${fmt(figures.writtenMb)} MB written; first page ${figures.firstPageMs.toFixed(1)} ms (then median ${figures.pageMedianMs.toFixed(1)} ms); ` +
        `search ${figures.searchMs.toFixed(0)} ms; load average ${loadBefore} before, ${load()} after`,
    );
    results.push(
      `${dialect} ${fmt(figures.rowsPerSecond)} rows/s (${ratio.toFixed(2)}x bare parse, goal ${fmt(GOAL_ROWS_PER_SECOND)}), ` +
        `RSS ${figures.peakRssMb} MB (goal ${GOAL_RSS_MB}), page ${figures.firstPageMs.toFixed(1)} ms (goal ${GOAL_PAGE_MS})`,
    );
  }
  console.log(`summary: ${fmt(ROWS)} rows: ${results.join('; ')}`);
} finally {
  rmSync(workDir, { recursive: true, force: true });
}
