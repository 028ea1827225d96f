/**
 * CSV records from decoded text, with csv-parse's semantics for the options the import uses (separator, `"` quotes
 * doubled inside quoted fields, relaxed quotes and column counts, record delimiter found on the first line,
 * record size limit) at a fraction of its cost: a line without a quote, the usual case, is one split; anything
 * else is read character by character exactly as csv-parse reads it.
 */

/** The ways csv-parse refuses a file, with the line it names. */
export class CsvTokenError extends Error {
  constructor(
    readonly code: 'CSV_MAX_RECORD_SIZE' | 'CSV_QUOTE_NOT_CLOSED',
    readonly lines: number,
  ) {
    super(`${code} at line ${lines}`);
  }
}

const QUOTE = '"';
/** Record delimiters in the order csv-parse tries them on the first line: Windows before Mac OS 9. */
const RECORD_DELIMITERS = ['\r\n', '\n', '\r'];

function isBreak(char: string): boolean {
  return char === '\n' || char === '\r';
}

/** UTF-8 bytes of a UTF-16 code unit; each half of a surrogate pair counts two. */
function utf8Bytes(code: number): number {
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  if (code >= 0xd800 && code <= 0xdfff) return 2;
  return 3;
}

export class CsvTokenizer {
  #text = '';
  #atFileStart = true;
  /** csv-parse takes the first line break it meets outside quotes as the one that ends every record. */
  #recordDelimiter: string | null = null;
  /** csv-parse's line counter: line breaks passed so far, in quotes or not, a CRLF ending a record counting once. */
  #breaks = 0;
  /** A break passed whose count csv-parse adds when it reads the next character. */
  #pendingBreak = false;

  constructor(
    private readonly delimiter: string,
    /** Bytes a record may reach (csv-parse's max_record_size). */
    private readonly maxRecordSize: number,
  ) {}

  /** Set once the text broke a rule; nothing more is read. */
  failure: CsvTokenError | null = null;

  /**
   * Records completed by this text; pass `end` with the last text (possibly empty) to complete the final one.
   * When the text breaks a rule, the records before the fault come back and `failure` holds the error.
   */
  push(text: string, end: boolean): string[][] {
    if (this.failure) return [];
    this.#text = this.#text ? this.#text + text : text;
    if (this.#atFileStart) {
      if (this.#text.length === 0 && !end) return [];
      if (this.#text.charCodeAt(0) === 0xfeff) this.#text = this.#text.slice(1);
      this.#atFileStart = false;
    }
    const records: string[][] = [];
    const source = this.#text;
    const length = source.length;
    let at = 0;
    try {
      while (at < length) {
        const next = this.#recordDelimiter === null ? -1 : this.#fastRecord(source, at, end, records);
        if (next >= 0) {
          at = next;
          continue;
        }
        if (next === -2) break;
        const slow = this.#slowRecord(source, at, end, records);
        if (slow < 0) break;
        at = slow;
      }
    } catch (error) {
      if (!(error instanceof CsvTokenError)) throw error;
      this.failure = error;
      this.#text = '';
      return records;
    }
    this.#text = at >= length ? '' : source.slice(at);
    if (end) this.#text = '';
    return records;
  }

  /**
   * A record that is one line without quotes; answers where the next record starts, -1 to read this one the slow
   * way, or -2 when its end is not here yet.
   */
  #fastRecord(source: string, at: number, end: boolean, records: string[][]): number {
    const recordDelimiter = this.#recordDelimiter!;
    const found = source.indexOf(recordDelimiter, at);
    if (found === -1 && !end) return -2;
    const stop = found === -1 ? source.length : found;
    // Quotes, and lines long enough to near the size limit, need the exact reading.
    if (stop - at > this.maxRecordSize / 3) return -1;
    const line = source.slice(at, stop);
    if (line.includes(QUOTE)) return -1;
    if (found === -1 && line.length === 0) return source.length;
    records.push(line.split(this.delimiter));
    this.#countBreaks(line, found !== -1);
    return found === -1 ? source.length : found + recordDelimiter.length;
  }

  /** Moves csv-parse's line counter past a line read the fast way. */
  #countBreaks(line: string, delimited: boolean): void {
    let breaks = this.#pendingBreak ? 1 : 0;
    for (let i = line.indexOf('\n'); i !== -1; i = line.indexOf('\n', i + 1)) breaks++;
    for (let i = line.indexOf('\r'); i !== -1; i = line.indexOf('\r', i + 1)) breaks++;
    // A break is counted when the character after it is read: the record delimiter, if there is one.
    const lastIsBreak = line.length > 0 && isBreak(line[line.length - 1]!);
    const uncounted = !delimited && lastIsBreak;
    this.#breaks += breaks - (uncounted ? 1 : 0);
    this.#pendingBreak = delimited || uncounted;
  }

  #discover(source: string, at: number): number {
    for (const candidate of RECORD_DELIMITERS) {
      if (source.startsWith(candidate, at)) {
        this.#recordDelimiter = candidate;
        return candidate.length;
      }
    }
    return 0;
  }

  /**
   * csv-parse's character loop for one record. Answers where the next record starts, or -1 when the record's end
   * is not in the text yet (it is read again from its start once more text has come).
   */
  #slowRecord(source: string, start: number, end: boolean, records: string[][]): number {
    const { delimiter, maxRecordSize } = this;
    const length = source.length;
    const breaksBefore = this.#breaks;
    const pendingBefore = this.#pendingBreak;
    const record: string[] = [];
    let field = '';
    let fieldBytes = 0;
    let recordChars = 0;
    let quoting = false;
    let wasQuoting = false;
    let escaping = false;
    const endField = () => {
      record.push(field);
      recordChars += field.length;
      field = '';
      fieldBytes = 0;
      wasQuoting = false;
    };
    let at = start;
    for (; at < length; at++) {
      // Decisions look up to two characters ahead; wait for them unless the text is complete.
      if (!end && at + 2 >= length) {
        this.#breaks = breaksBefore;
        this.#pendingBreak = pendingBefore;
        return -1;
      }
      if (this.#pendingBreak) {
        this.#breaks++;
        this.#pendingBreak = false;
      }
      if (!quoting && this.#recordDelimiter === null) this.#discover(source, at);
      const char = source[at]!;
      if (isBreak(char)) this.#pendingBreak = true;
      if (escaping) {
        escaping = false;
      } else {
        if (quoting && char === QUOTE && at + 1 < length && source[at + 1] === QUOTE) {
          escaping = true;
          continue;
        }
        if (char === QUOTE) {
          if (quoting) {
            const after = source[at + 1];
            const closes =
              after === undefined ||
              after === '\u0000' ||
              source.startsWith(delimiter, at + 1) ||
              (this.#recordDelimiter === null
                ? this.#discover(source, at + 1) > 0
                : source.startsWith(this.#recordDelimiter, at + 1));
            quoting = false;
            wasQuoting = true;
            if (closes) continue;
            // A closing quote followed by more text: relaxed, the field keeps both quotes as text.
            field = QUOTE + field;
            fieldBytes++;
          } else if (fieldBytes === 0) {
            quoting = true;
            continue;
          }
        }
        if (!quoting) {
          const recordDelimiter = this.#recordDelimiter;
          if (recordDelimiter !== null && source.startsWith(recordDelimiter, at)) {
            endField();
            records.push(record);
            return at + recordDelimiter.length;
          }
          if (source.startsWith(delimiter, at)) {
            endField();
            at += delimiter.length - 1;
            continue;
          }
        }
      }
      const bytes = utf8Bytes(char.charCodeAt(0));
      if (recordChars + fieldBytes + bytes - 1 > maxRecordSize) throw new CsvTokenError('CSV_MAX_RECORD_SIZE', 1 + this.#breaks);
      field += char;
      fieldBytes += bytes;
    }
    if (quoting) throw new CsvTokenError('CSV_QUOTE_NOT_CLOSED', 1 + this.#breaks);
    if (wasQuoting || record.length > 0 || field.length > 0) {
      endField();
      records.push(record);
    }
    return length;
  }
}
