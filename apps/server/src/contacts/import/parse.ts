/**
 * Reads an uploaded file as a stream of records: file → decoder (unless UTF-8) → csv-parse, with backpressure
 * all the way, so memory stays flat whatever the file's size. Each record carries the line it starts on.
 */
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream';
import type { ErrorKey } from '@herald/shared';
import { CsvError, parse } from 'csv-parse';
import iconv from 'iconv-lite';
import type { Encoding, Separator } from './detect.js';

/** Longest record accepted: a wrong separator or a stray quote swallowing the file stops here. */
const MAX_RECORD_CHARS = 128 * 1024;
/** A one-column file still needs a delimiter: two private-use characters no real file holds. */
const NO_SEPARATOR = '\uE000\uF8FF';

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

export interface RecordReader {
  records: AsyncGenerator<FileRecord>;
  /** Bytes of the file read so far, for the progress estimate. */
  bytesRead(): number;
}

function unreadableFileError(error: unknown): unknown {
  if (!(error instanceof CsvError)) return error;
  const line = Number(error.lines ?? 0);
  if (error.code === 'CSV_MAX_RECORD_SIZE')
    return new UnreadableFileError('import.recordTooLong', { line, limit: MAX_RECORD_CHARS });
  return new UnreadableFileError('import.unclosedQuote', { line });
}

export function openRecords(filePath: string, settings: ReadSettings): RecordReader {
  const file = createReadStream(filePath);
  const parser = parse({
    delimiter: settings.separator ?? NO_SEPARATOR,
    bom: true,
    relax_quotes: true,
    relax_column_count: true,
    max_record_size: MAX_RECORD_CHARS,
  });
  const onError = () => {};
  // pipeline destroys every stage when the consumer stops early; errors reach the consumer through the parser.
  if (settings.encoding === 'utf-8') pipeline(file, parser, onError);
  else pipeline(file, iconv.decodeStream(settings.encoding), parser, onError);

  async function* records(): AsyncGenerator<FileRecord> {
    let nextLine = 1;
    try {
      for await (const fields of parser as AsyncIterable<string[]>) {
        const line = nextLine;
        let blank = true;
        let unreadable = false;
        for (const field of fields) {
          for (let at = field.indexOf('\n'); at !== -1; at = field.indexOf('\n', at + 1)) nextLine++;
          if (field.includes('\u0000')) throw new UnreadableFileError('import.binaryContent', { line });
          if (field.includes('\uFFFD')) unreadable = true;
          if (blank && field.trim() !== '') blank = false;
        }
        nextLine++;
        if (!blank) yield { fields, line, unreadable };
      }
    } catch (error) {
      throw unreadableFileError(error);
    } finally {
      parser.destroy();
    }
  }

  return { records: records(), bytesRead: () => file.bytesRead };
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
