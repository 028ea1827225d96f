/** An import's life through the API: upload and preview, start, progress, cancel, report. */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { MultipartFile } from '@fastify/multipart';
import { type ErrorKey, IMPORT_PREVIEW_ROWS, type Language } from '@herald/shared';
import { errorText } from '@herald/shared/error-messages';
import type { Db, Dialect } from '../../db/database.js';
import { AppError, invalidField, invalidFields, notFound } from '../../http/errors.js';
import { suggestCountry } from '../country.js';
import { isCountryCode } from '../fields.js';
import * as q from '../queries.js';
import {
  decodeSample,
  detectEncoding,
  detectHeader,
  detectSeparator,
  type Encoding,
  SAMPLE_BYTES,
  type Separator,
} from './detect.js';
import { checkMapping, type Mapping, suggestMapping } from './normalise.js';
import { readFirstRecords, UnreadableFileError } from './parse.js';
import { type ImportRunner, STALE_AFTER_MS } from './runner.js';

export interface ImportDeps {
  db: Db;
  dialect: Dialect;
  dataDir: string;
  /** Largest upload accepted (IMPORT_MAX_BYTES). */
  importMaxBytes: number;
  runner: ImportRunner;
}

/** Who is asking: the account, the language of the answers, and what suggests a default country. */
export interface Requester {
  accountId: number;
  language: Language;
  timeZoneId: string;
}

const IMPORTS_DIR = 'imports';
const ACCEPTED_EXTENSIONS = ['.csv', '.txt'];
/** What browsers call CSV and text files; Windows with Excel installed calls a .csv application/vnd.ms-excel. */
const ACCEPTED_TYPES = new Set([
  '',
  'text/csv',
  'text/plain',
  'text/x-csv',
  'text/comma-separated-values',
  'text/tab-separated-values',
  'application/csv',
  'application/vnd.ms-excel',
  'application/octet-stream',
]);
/** Room for the multipart envelope around the file when a request's declared length is checked. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
const STARTABLE = ['pending', 'failed', 'cancelled'];

export interface PreviewSettings {
  encoding: Encoding;
  separator: Separator | null;
  hasHeader: boolean;
}

/** What the console shows before an import starts, stored on the import so a reload finds it again. */
export interface Preview {
  header: string[] | null;
  columnCount: number;
  /** The first records after the header. */
  rows: string[][];
  suggestedMapping: Mapping;
}

function humanSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${Math.round(bytes / 1024)} KB`;
}

function tooLarge(limitBytes: number): AppError {
  const params = { limit: humanSize(limitBytes) };
  return new AppError(413, 'upload.tooLarge', params, [{ field: 'file', key: 'upload.tooLarge', params }]);
}

function fileError(key: ErrorKey, params: Record<string, string | number> = {}): AppError {
  return new AppError(400, key, params, [{ field: 'file', key, params }]);
}

async function readSample(filePath: string): Promise<Buffer> {
  const handle = await open(filePath);
  try {
    const buffer = Buffer.alloc(SAMPLE_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SAMPLE_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Detects what the overrides leave open and reads the first records; refuses files that are not text or hold nothing. */
export async function buildPreview(
  filePath: string,
  sizeBytes: number,
  overrides: Partial<PreviewSettings>,
): Promise<PreviewSettings & Preview> {
  if (sizeBytes === 0) throw fileError('import.emptyFile');
  const sample = await readSample(filePath);
  const encoding = overrides.encoding ?? detectEncoding(sample);
  if (!encoding) throw fileError('upload.wrongFile');
  const separator =
    overrides.separator !== undefined
      ? overrides.separator
      : detectSeparator(decodeSample(sample, encoding, sizeBytes <= SAMPLE_BYTES));
  let records: string[][];
  try {
    records = (await readFirstRecords(filePath, { encoding, separator }, IMPORT_PREVIEW_ROWS + 1)).map((record) => record.fields);
  } catch (error) {
    if (error instanceof UnreadableFileError) throw fileError(error.key, error.params);
    throw error;
  }
  if (records.length === 0) throw fileError('import.emptyFile');
  const hasHeader = overrides.hasHeader ?? detectHeader(records);
  const header = hasHeader ? records[0]! : null;
  const rows = records.slice(hasHeader ? 1 : 0).slice(0, IMPORT_PREVIEW_ROWS);
  const columnCount = records[0]!.length;
  return {
    encoding,
    separator,
    hasHeader,
    header,
    columnCount,
    rows,
    suggestedMapping: suggestMapping(header, rows, columnCount),
  };
}

function storedPreview(preview: Preview): string {
  const { header, columnCount, rows, suggestedMapping } = preview;
  return JSON.stringify({ header, columnCount, rows, suggestedMapping });
}

function previewOf(row: q.ImportRow) {
  return {
    encoding: row.encoding as Encoding,
    separator: row.separator as Separator | null,
    hasHeader: row.has_header === 1,
    ...(JSON.parse(row.preview) as Preview),
  };
}

function rate(row: q.ImportRow, now: number): number | null {
  if (row.started_at === null) return null;
  const end = row.status === 'running' ? now : (row.finished_at ?? now);
  const seconds = (end - Number(row.started_at)) / 1000;
  return seconds > 0 ? Math.round(Number(row.rows_done) / seconds) : null;
}

function presentImport(row: q.ImportRow, language: Language, now = Date.now()) {
  const rowsPerSecond = rate(row, now);
  const rowsLeft = Number(row.rows_total) - Number(row.rows_done);
  const errorParams = row.error_params ? (JSON.parse(row.error_params) as Record<string, string | number>) : {};
  const sample = JSON.parse(row.invalid_sample) as { line: number; key: ErrorKey; params: Record<string, string | number> }[];
  return {
    id: Number(row.id),
    listId: Number(row.list_id),
    fileName: row.file_name,
    sizeBytes: Number(row.size_bytes),
    status: row.status,
    phase: row.phase,
    cancelRequested: row.cancel_requested === 1,
    mode: row.mode,
    mapping: row.mapping ? (JSON.parse(row.mapping) as Mapping) : null,
    defaultCountry: row.default_country,
    rowsDone: Number(row.rows_done),
    rowsTotal: Number(row.rows_total),
    rowsPerSecond,
    secondsLeft:
      row.status === 'running' && row.phase === 'reading' && rowsPerSecond
        ? Math.ceil(Math.max(0, rowsLeft) / rowsPerSecond)
        : null,
    imported: Number(row.imported),
    updated: Number(row.updated),
    removed: Number(row.removed),
    duplicates: Number(row.duplicates),
    invalid: Number(row.invalid),
    invalidSample: sample.map((entry) => ({
      line: entry.line,
      key: entry.key,
      message: errorText(entry.key, language, entry.params),
    })),
    error: row.error ? { key: row.error, message: errorText(row.error as ErrorKey, language, errorParams) } : null,
    reportAvailable: row.report_path !== null && Number(row.invalid) > 0,
    fileKept: row.file_path !== null,
    createdAt: Number(row.created_at),
    startedAt: row.started_at === null ? null : Number(row.started_at),
    finishedAt: row.finished_at === null ? null : Number(row.finished_at),
  };
}

/** The preview with the country national numbers will be read in: the list's, else one suggested for the account. */
async function previewAnswer(deps: ImportDeps, who: Requester, row: q.ImportRow) {
  const list = await q.findList(deps.db, who.accountId, Number(row.list_id));
  const defaultCountry = list?.default_country ?? suggestCountry(who.timeZoneId, who.language);
  return { importId: Number(row.id), preview: { ...previewOf(row), defaultCountry } };
}

function isAcceptedUpload(part: MultipartFile): boolean {
  const type = part.mimetype.split(';')[0]!.trim().toLowerCase();
  return ACCEPTED_EXTENSIONS.includes(path.extname(part.filename).toLowerCase()) && ACCEPTED_TYPES.has(type);
}

export interface UploadRequest {
  declaredBytes: number;
  /** Reads the request's first file part with the given size limit. */
  file(limitBytes: number): Promise<MultipartFile | undefined>;
}

/** Streams the upload to DATA_DIR/imports, sniffs it and keeps it as a pending import with its preview. */
export async function receiveUpload(deps: ImportDeps, who: Requester, listId: number, upload: UploadRequest) {
  const { db, dataDir, importMaxBytes } = deps;
  const { accountId, language } = who;
  if (!(await q.findList(db, accountId, listId))) throw notFound();
  if (upload.declaredBytes > importMaxBytes + MULTIPART_OVERHEAD_BYTES) throw tooLarge(importMaxBytes);
  const part = await upload.file(importMaxBytes);
  if (!part) throw invalidField('file', { key: 'validation.mandatory' });
  if (!isAcceptedUpload(part)) {
    part.file.resume();
    throw fileError('upload.wrongFile');
  }
  await mkdir(path.join(dataDir, IMPORTS_DIR), { recursive: true });
  const tempPath = path.join(dataDir, IMPORTS_DIR, `upload-${randomUUID()}.part`);
  try {
    await pipeline(part.file, createWriteStream(tempPath));
    if (part.file.truncated) throw tooLarge(importMaxBytes);
    const sizeBytes = (await stat(tempPath)).size;
    const preview = await buildPreview(tempPath, sizeBytes, {});
    const id = await q.insertImport(db, {
      account_id: accountId,
      list_id: listId,
      file_name: part.filename,
      size_bytes: sizeBytes,
      file_path: null,
      encoding: preview.encoding,
      separator: preview.separator,
      has_header: preview.hasHeader ? 1 : 0,
      preview: storedPreview(preview),
      mapping: null,
      mode: null,
      default_country: null,
      language,
      status: 'pending',
      phase: null,
      report_path: null,
      error: null,
      error_params: null,
      created_at: Date.now(),
      started_at: null,
      finished_at: null,
      heartbeat_at: null,
    });
    const filePath = path.join(IMPORTS_DIR, `${id}.upload`);
    await rename(tempPath, path.join(dataDir, filePath));
    await q.updateImport(db, id, { file_path: filePath });
    return previewAnswer(deps, who, (await q.findImport(db, accountId, id))!);
  } finally {
    await rm(tempPath, { force: true });
  }
}

async function findStartable(deps: ImportDeps, accountId: number, id: number): Promise<q.ImportRow & { file_path: string }> {
  const row = await q.findImport(deps.db, accountId, id);
  if (!row) throw notFound();
  if (!STARTABLE.includes(row.status)) throw new AppError(409, 'import.notStartable');
  const kept = row.file_path !== null && (await stat(path.join(deps.dataDir, row.file_path)).catch(() => null))?.isFile();
  if (!kept) throw new AppError(409, 'import.fileGone');
  return row as q.ImportRow & { file_path: string };
}

/** Reads the file again with the settings the user chose where detection got them wrong. */
export async function changePreview(deps: ImportDeps, who: Requester, id: number, overrides: Partial<PreviewSettings>) {
  const row = await findStartable(deps, who.accountId, id);
  const preview = await buildPreview(path.join(deps.dataDir, row.file_path), Number(row.size_bytes), overrides);
  await q.updateImport(deps.db, id, {
    encoding: preview.encoding,
    separator: preview.separator,
    has_header: preview.hasHeader ? 1 : 0,
    preview: storedPreview(preview),
  });
  return previewAnswer(deps, who, (await q.findImport(deps.db, who.accountId, id))!);
}

export interface StartInput {
  mapping: Record<string, string>;
  mode: q.ImportMode;
  /** Saved on the list when given; null reads international numbers only. */
  defaultCountry?: string | null | undefined;
}

export async function startImport(deps: ImportDeps, who: Requester, id: number, input: StartInput) {
  const { db } = deps;
  const { accountId, language } = who;
  const row = await findStartable(deps, accountId, id);
  const preview = previewOf(row);
  const failures = checkMapping(input.mapping, preview.columnCount);
  if (input.defaultCountry && !isCountryCode(input.defaultCountry)) {
    failures.push({ field: 'defaultCountry', key: 'validation.unknownCountry' });
  }
  if (failures.length > 0) throw invalidFields(failures);
  const listId = Number(row.list_id);
  const list = await q.findList(db, accountId, listId);
  if (!list) throw notFound();
  if (list.importing) throw new AppError(409, 'contacts.listBusy');
  const now = Date.now();
  if (input.defaultCountry !== undefined)
    await q.updateList(db, accountId, listId, { default_country: input.defaultCountry }, now);
  const defaultCountry = input.defaultCountry !== undefined ? input.defaultCountry : list.default_country;
  const mapping = input.mapping as Mapping;
  const reportPath = path.join(IMPORTS_DIR, `${id}.report.csv`);
  const claimed = await q.claimImport(db, accountId, id, {
    mapping: JSON.stringify(mapping),
    mode: input.mode,
    default_country: defaultCountry,
    language,
    phase: 'reading',
    cancel_requested: 0,
    rows_done: 0,
    rows_total: 0,
    imported: 0,
    updated: 0,
    removed: 0,
    duplicates: 0,
    invalid: 0,
    invalid_sample: '[]',
    report_path: reportPath,
    error: null,
    error_params: null,
    started_at: now,
    finished_at: null,
    heartbeat_at: now,
  });
  if (!claimed) throw new AppError(409, 'contacts.listBusy');
  deps.runner.start({
    importId: id,
    accountId,
    listId,
    filePath: path.join(deps.dataDir, row.file_path),
    reportPath,
    sizeBytes: Number(row.size_bytes),
    settings: { encoding: preview.encoding, separator: preview.separator },
    hasHeader: preview.hasHeader,
    columnCount: preview.columnCount,
    mapping,
    mode: input.mode,
    defaultCountry,
    language,
  });
  return getImport(deps, who, id);
}

/** One import; a running one whose process has gone quiet is failed first, so it never shows running forever. */
export async function getImport(deps: ImportDeps, who: Requester, id: number) {
  const { accountId } = who;
  let row = await q.findImport(deps.db, accountId, id);
  if (!row) throw notFound();
  const now = Date.now();
  const heartbeat = row.heartbeat_at === null ? 0 : Number(row.heartbeat_at);
  if (row.status === 'running' && now - heartbeat > STALE_AFTER_MS && !deps.runner.isRunningHere(id)) {
    if (await q.failStaleImport(deps.db, id, now - STALE_AFTER_MS, now)) await q.dropStagingTable(deps.db, id);
    row = (await q.findImport(deps.db, accountId, id))!;
  }
  return { ...presentImport(row, who.language, now), preview: (await previewAnswer(deps, who, row)).preview };
}

export async function listImports(deps: ImportDeps, who: Requester, listId: number, page: number, size: number) {
  const { accountId, language } = who;
  if (!(await q.findList(deps.db, accountId, listId))) throw notFound();
  const [rows, total] = await Promise.all([
    q.listImports(deps.db, accountId, listId, size, (page - 1) * size),
    q.countImports(deps.db, accountId, listId),
  ]);
  return { total, items: rows.map((row) => presentImport(row, language)) };
}

/** A waiting import is cancelled at once; a running one stops at its next batch, leaving its list untouched. */
export async function cancelImport(deps: ImportDeps, who: Requester, id: number) {
  const { accountId } = who;
  const row = await q.findImport(deps.db, accountId, id);
  if (!row) throw notFound();
  const done =
    (await q.cancelPendingImport(deps.db, accountId, id, Date.now())) || (await q.requestCancel(deps.db, accountId, id));
  if (!done) throw new AppError(409, 'import.notCancellable');
  return getImport(deps, who, id);
}

export interface ReportDownload {
  fileName: string;
  stream: ReadStream;
}

export async function openReport(deps: ImportDeps, accountId: number, id: number): Promise<ReportDownload> {
  const row = await q.findImport(deps.db, accountId, id);
  if (!row?.report_path) throw notFound();
  const absolutePath = path.join(deps.dataDir, row.report_path);
  if (!(await stat(absolutePath).catch(() => null))?.isFile()) throw notFound();
  return { fileName: `${path.parse(row.file_name).name}-report.csv`, stream: createReadStream(absolutePath) };
}
