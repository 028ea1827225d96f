/**
 * Reads an uploaded file as a stream of records: file → decoder → CSV tokenizer, pulled chunk by chunk, so memory
 * stays flat whatever the file's size. Each record carries the line it starts on.
 */
import { createReadStream } from 'node:fs';
import type { ErrorKey } from '@herald/shared';
import iconv from 'iconv-lite';
import type { Encoding, Separator } from './detect.js';
import { CsvTokenError, CsvTokenizer } from './tokenizer.js';

/** Longest record accepted: a wrong separator or a stray quote swallowing the file stops here. */
const MAX_RECORD_CHARS = 128 * 1024;
/** A one-column file still needs a delimiter: two private-use characters no real file holds. */
const NO_SEPARATOR = '\uE000\uF8FF';
const UNPAIRED_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** File bytes read at a time. */
const CHUNK_BYTES = 256 * 1024;

export interface ReadSettings {
  encoding: Encoding;
  separator: Separator | null;
}

export interface FileRecord {
  fields: string[];
  /** Line the record starts on, counting from 1; a quoted field can make a record span several lines. */
  line: number;
  /** Set when a field holds characters the encoding could not read (U+FFFD). */
  unreadable: boolean;
}

/** What makes a whole file unreadable; the import fails with this message key. */
export class UnreadableFileError extends Error {
  constructor(
    readonly key: ErrorKey,
    readonly params: Record<string, string | number>,
  ) {
    super(key);
  }
}

export interface RecordBatches {
  /** The records of each chunk of the file read; blank records are left out. */
  batches: AsyncGenerator<FileRecord[]>;
  /** Bytes of the file read so far, for the progress estimate. */
  bytesRead(): number;
}

export interface RecordReader {
  records: AsyncGenerator<FileRecord>;
  bytesRead(): number;
}

function unreadableFileError(error: unknown): unknown {
  if (!(error instanceof CsvTokenError)) return error;
  if (error.code === 'CSV_MAX_RECORD_SIZE')
    return new UnreadableFileError('import.recordTooLong', { line: error.lines, limit: MAX_RECORD_CHARS });
  return new UnreadableFileError('import.unclosedQuote', { line: error.lines });
}

interface TextDecoding {
  write(chunk: Buffer): string;
  end(): string;
}

/** UTF-8 keeps its byte order mark here: the tokenizer drops one at the start, as csv-parse does. */
function decoderFor(encoding: Encoding): TextDecoding {
  if (encoding === 'utf-8') {
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
    return { write: (chunk) => decoder.decode(chunk, { stream: true }), end: () => decoder.decode() };
  }
  const decoder = iconv.getDecoder(encoding);
  return { write: (chunk) => decoder.write(chunk), end: () => decoder.end() ?? '' };
}

export function openRecordBatches(filePath: string, settings: ReadSettings): RecordBatches {
  const file = createReadStream(filePath, { highWaterMark: CHUNK_BYTES });
  const decoder = decoderFor(settings.encoding);
  const tokenizer = new CsvTokenizer(settings.separator ?? NO_SEPARATOR, MAX_RECORD_CHARS);
  let nextLine = 1;
  // UTF-16 text can hold halves of surrogate pairs, which UTF-8 cannot carry: they read as U+FFFD, like bytes no
  // encoding could read.
  const utf16 = settings.encoding.startsWith('utf-16');
  /** Set once the file breaks a rule; the records before the fault are handed out first. */
  let failure: unknown = null;

  const checked = (found: string[][]): FileRecord[] => {
    const records: FileRecord[] = [];
    for (const fields of found) {
      const line = nextLine;
      let blank = true;
      let unreadable = false;
      for (let column = 0; column < fields.length; column++) {
        let field = fields[column]!;
        if (utf16 && UNPAIRED_SURROGATES.test(field)) {
          UNPAIRED_SURROGATES.lastIndex = 0;
          field = fields[column] = field.replace(UNPAIRED_SURROGATES, '\uFFFD');
        }
        for (let at = field.indexOf('\n'); at !== -1; at = field.indexOf('\n', at + 1)) nextLine++;
        if (field.includes('\u0000')) {
          failure = new UnreadableFileError('import.binaryContent', { line });
          return records;
        }
        if (field.includes('\uFFFD')) unreadable = true;
        if (blank && field.trim() !== '') blank = false;
      }
      nextLine++;
      if (!blank) records.push({ fields, line, unreadable });
    }
    if (tokenizer.failure) failure = unreadableFileError(tokenizer.failure);
    return records;
  };

  async function* batches(): AsyncGenerator<FileRecord[]> {
    try {
      for await (const chunk of file as AsyncIterable<Buffer>) {
        yield checked(tokenizer.push(decoder.write(chunk), false));
        if (failure) throw failure;
      }
      yield checked(tokenizer.push(decoder.end(), true));
      if (failure) throw failure;
    } finally {
      file.destroy();
    }
  }

  return { batches: batches(), bytesRead: () => file.bytesRead };
}

export function openRecords(filePath: string, settings: ReadSettings): RecordReader {
  const reader = openRecordBatches(filePath, settings);
  async function* records(): AsyncGenerator<FileRecord> {
    for await (const batch of reader.batches) yield* batch;
  }
  return { records: records(), bytesRead: reader.bytesRead };
}

/** The first records of a file, for the preview. */
export async function readFirstRecords(filePath: string, settings: ReadSettings, count: number): Promise<FileRecord[]> {
  const found: FileRecord[] = [];
  for await (const record of openRecords(filePath, settings).records) {
    found.push(record);
    if (found.length === count) break;
  }
  return found;
}
