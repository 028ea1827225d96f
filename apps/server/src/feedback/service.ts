/** Feedback from the console's form: checked as a whole, then stored with its images under DATA_DIR/feedback/<id>/. */
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import { FEEDBACK_MAX_FILE_BYTES, FEEDBACK_MAX_FILES, isAllowedFeedbackFile, isEmail, type RuleFailure } from '@herald/shared';
import type { AddressThrottle } from '../auth/address-throttle.js';
import type { Db } from '../db/database.js';
import { AppError, type FieldFailure, invalidField, invalidFields, notFound } from '../http/errors.js';
import * as q from './queries.js';

export interface FeedbackDeps {
  db: Db;
  dataDir: string;
  /** Caps feedback uploads per client address. */
  throttle: AddressThrottle;
}

/** Longest text field accepted; busboy cuts longer values, which are then refused rather than stored cut. */
const MAX_TEXT_FIELD_BYTES = 64 * 1024;

/** Parser limits: a sixth file or a file over the size limit ends parsing with an error the service translates. */
export const FEEDBACK_FORM_LIMITS = {
  limits: { files: FEEDBACK_MAX_FILES, fileSize: FEEDBACK_MAX_FILE_BYTES, fieldSize: MAX_TEXT_FIELD_BYTES },
};

const FILE_SIZE_LIMIT_TEXT = `${FEEDBACK_MAX_FILE_BYTES / 1024 / 1024} MB`;

/** How every file of an accepted type starts, so a renamed text file is refused. */
const SIGNATURES: Record<string, Buffer> = {
  'image/png': Buffer.from([0x89, 0x50, 0x4e, 0x47]),
  'image/jpeg': Buffer.from([0xff, 0xd8, 0xff]),
};
const SIGNATURE_BYTES = Math.max(...Object.values(SIGNATURES).map((signature) => signature.length));
const STORED_EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg' };

const TEXT_FIELDS = ['name', 'email', 'desc'] as const;
type TextField = (typeof TEXT_FIELDS)[number];

/** The spec's rules for the form's text fields, applied to trimmed values. */
const TEXT_RULES: Record<TextField, (value: string) => RuleFailure | null> = {
  name: (value) => (value ? null : { key: 'feedbackNameMissing' }),
  email: (value) => (!value ? { key: 'emailMissing' } : isEmail(value) ? null : { key: 'invalidEmail' }),
  desc: (value) => (value ? null : { key: 'feedbackDescMissing' }),
};

interface ReceivedFile {
  field: string;
  fileName: string;
  mimeType: string;
  sizeBytes: number;
  head: Buffer;
  tempPath: string;
}

interface ReceivedForm {
  /** Trimmed values. */
  text: Partial<Record<TextField, string>>;
  /** Text fields that arrived cut at the size limit or not as text. */
  unreadable: TextField[];
  files: ReceivedFile[];
}

function isTextField(name: string): name is TextField {
  return (TEXT_FIELDS as readonly string[]).includes(name);
}

async function saveToTemp(part: MultipartFile, tempPath: string): Promise<ReceivedFile> {
  let head = Buffer.alloc(0);
  let sizeBytes = 0;
  await pipeline(
    part.file,
    async function* (chunks: AsyncIterable<Buffer>) {
      for await (const chunk of chunks) {
        if (head.length < SIGNATURE_BYTES) head = Buffer.concat([head, chunk.subarray(0, SIGNATURE_BYTES - head.length)]);
        sizeBytes += chunk.length;
        yield chunk;
      }
    },
    createWriteStream(tempPath),
  );
  return { field: part.fieldname, fileName: part.filename, mimeType: part.mimetype, sizeBytes, head, tempPath };
}

/** The parser's limit errors as the API's errors, naming the field at fault. */
function uploadLimitError(error: unknown): unknown {
  const { code, part } = error as { code?: string; part?: { fieldname?: string } };
  if (code === 'FST_FILES_LIMIT') return invalidField('files', { key: 'upload.tooManyFiles', params: { n: FEEDBACK_MAX_FILES } });
  if (code === 'FST_REQ_FILE_TOO_LARGE') {
    const params = { limit: FILE_SIZE_LIMIT_TEXT };
    return new AppError(413, 'upload.tooLarge', params, [{ field: part?.fieldname ?? 'files', key: 'upload.tooLarge', params }]);
  }
  return error;
}

/** Reads every part: text fields into memory, files into the temp directory. */
async function receiveForm(parts: AsyncIterable<Multipart>, tempDir: string): Promise<ReceivedForm> {
  const form: ReceivedForm = { text: {}, unreadable: [], files: [] };
  try {
    for await (const part of parts) {
      if (part.type === 'file') {
        form.files.push(await saveToTemp(part, path.join(tempDir, String(form.files.length))));
      } else if (isTextField(part.fieldname)) {
        if (typeof part.value === 'string' && !part.valueTruncated) form.text[part.fieldname] = part.value.trim();
        else form.unreadable.push(part.fieldname);
      }
    }
  } catch (error) {
    throw uploadLimitError(error);
  }
  return form;
}

function isAcceptedImage(file: ReceivedFile): boolean {
  const signature = SIGNATURES[file.mimeType];
  return (
    isAllowedFeedbackFile(file.fileName, file.mimeType) &&
    signature !== undefined &&
    file.head.subarray(0, signature.length).equals(signature)
  );
}

function formFailures(form: ReceivedForm): FieldFailure[] {
  const failures: FieldFailure[] = [];
  for (const field of TEXT_FIELDS) {
    const failure: RuleFailure | null = form.unreadable.includes(field)
      ? { key: 'validation.invalidValue' }
      : TEXT_RULES[field](form.text[field] ?? '');
    if (failure) failures.push({ field, ...failure });
  }
  for (const file of form.files) {
    if (!isAcceptedImage(file)) failures.push({ field: file.field, key: 'upload.wrongFile' });
  }
  return failures;
}

async function storeFeedback(deps: FeedbackDeps, feedback: q.NewFeedback, files: ReceivedFile[]): Promise<number> {
  let feedbackDir: string | undefined;
  try {
    return await deps.db.transaction().execute(async (trx) => {
      const id = await q.insertFeedback(trx, feedback, Date.now());
      feedbackDir = path.join(deps.dataDir, 'feedback', String(id));
      // SQLite hands out an id again after a rollback, so a crashed earlier attempt may have left files here.
      await rm(feedbackDir, { recursive: true, force: true });
      await mkdir(feedbackDir, { recursive: true });
      for (const [index, file] of files.entries()) {
        const storedPath = `feedback/${id}/${index + 1}.${STORED_EXTENSIONS[file.mimeType]}`;
        await rename(file.tempPath, path.join(deps.dataDir, storedPath));
        await q.insertFeedbackFile(trx, {
          feedbackId: id,
          accountId: feedback.accountId,
          fileName: file.fileName,
          mimeType: file.mimeType,
          sizeBytes: file.sizeBytes,
          storedPath,
        });
      }
      return id;
    });
  } catch (error) {
    if (feedbackDir) await rm(feedbackDir, { recursive: true, force: true });
    throw error;
  }
}

/** Stores a feedback form only when every field and file is acceptable; otherwise nothing is kept. */
export async function submitFeedback(
  deps: FeedbackDeps,
  accountId: number | null,
  parts: AsyncIterable<Multipart>,
): Promise<{ id: number }> {
  const tempRoot = path.join(deps.dataDir, 'tmp');
  await mkdir(tempRoot, { recursive: true });
  // Under DATA_DIR, so accepted files move into place with a rename on the same file system.
  const tempDir = await mkdtemp(path.join(tempRoot, 'feedback-'));
  try {
    const form = await receiveForm(parts, tempDir);
    const failures = formFailures(form);
    if (failures.length > 0) throw invalidFields(failures);
    const { name = '', email = '', desc = '' } = form.text;
    const id = await storeFeedback(deps, { accountId, name, email, description: desc }, form.files);
    return { id };
  } finally {
    // Accepted files have been moved out by now; whatever is left was refused.
    await rm(tempDir, { recursive: true, force: true });
  }
}

export async function listFeedback(db: Db, page: number, size: number) {
  const [rows, total] = await Promise.all([q.findFeedbackPage(db, size, (page - 1) * size), q.countFeedback(db)]);
  const files = await q.findFilesOfFeedback(
    db,
    rows.map((row) => Number(row.id)),
  );
  return {
    total,
    items: rows.map((row) => ({
      id: Number(row.id),
      name: row.name,
      email: row.email,
      desc: row.description,
      createdAt: Number(row.created_at),
      files: files
        .filter((file) => Number(file.feedback_id) === Number(row.id))
        .map((file) => ({
          id: Number(file.id),
          fileName: file.file_name,
          mimeType: file.mime_type,
          sizeBytes: Number(file.size_bytes),
        })),
    })),
  };
}

export interface FeedbackFileDownload {
  fileName: string;
  mimeType: string;
  sizeBytes: number;
  stream: ReadStream;
}

export async function openFeedbackFile(deps: FeedbackDeps, fileId: number): Promise<FeedbackFileDownload> {
  const row = await q.findFeedbackFile(deps.db, fileId);
  if (!row) throw notFound();
  const absolutePath = path.join(deps.dataDir, row.stored_path);
  const found = await stat(absolutePath).catch(() => null);
  if (!found?.isFile()) throw notFound();
  return { fileName: row.file_name, mimeType: row.mime_type, sizeBytes: found.size, stream: createReadStream(absolutePath) };
}
