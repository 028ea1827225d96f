import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import iconv from 'iconv-lite';
import { afterAll, describe, expect, it } from 'vitest';
import type { Encoding, Separator } from '../../src/contacts/import/detect.js';
import { openRecords } from '../../src/contacts/import/parse.js';
import { CsvTokenizer } from '../../src/contacts/import/tokenizer.js';
import * as files from '../fixtures/contacts/files.js';

const dir = mkdtempSync(path.join(tmpdir(), 'herald-tokenizer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MAX_RECORD = 128 * 1024;
const NO_SEPARATOR = '\uE000\uF8FF';

interface Outcome {
  records: { fields: string[]; line: number; unreadable: boolean }[];
  error: { code: string; line?: number } | null;
}

/** The reading the importer did before the tokenizer: csv-parse over the (decoded) file, with the same checks per record. */
async function readWithCsvParse(filePath: string, encoding: Encoding, separator: Separator | null): Promise<Outcome> {
  const parser = parse({
    delimiter: separator ?? NO_SEPARATOR,
    bom: true,
    relax_quotes: true,
    relax_column_count: true,
    max_record_size: MAX_RECORD,
  });
  const file = createReadStream(filePath);
  if (encoding === 'utf-8') pipeline(file, parser, () => {});
  else pipeline(file, iconv.decodeStream(encoding), parser, () => {});
  const outcome: Outcome = { records: [], error: null };
  let nextLine = 1;
  try {
    for await (const fields of parser as AsyncIterable<string[]>) {
      const line = nextLine;
      let blank = true;
      let unreadable = false;
      for (const field of fields) {
        for (let at = field.indexOf('\n'); at !== -1; at = field.indexOf('\n', at + 1)) nextLine++;
        if (field.includes('\u0000')) {
          outcome.error = { code: 'import.binaryContent', line };
          return outcome;
        }
        if (field.includes('\uFFFD')) unreadable = true;
        if (blank && field.trim() !== '') blank = false;
      }
      nextLine++;
      if (!blank) outcome.records.push({ fields, line, unreadable });
    }
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const key = error.code === 'CSV_MAX_RECORD_SIZE' ? 'import.recordTooLong' : 'import.unclosedQuote';
    outcome.error = { code: key, line: Number(error.lines) };
  }
  return outcome;
}

async function readWithImporter(filePath: string, encoding: Encoding, separator: Separator | null): Promise<Outcome> {
  const outcome: Outcome = { records: [], error: null };
  try {
    for await (const record of openRecords(filePath, { encoding, separator }).records) outcome.records.push(record);
  } catch (error) {
    const { key, params } = error as { key: string; params: { line?: number } };
    outcome.error = { code: key, line: params.line! };
  }
  return outcome;
}

let fileCount = 0;
async function expectSameReading(content: Buffer | string, encoding: Encoding = 'utf-8', separator: Separator | null = ',') {
  const filePath = path.join(dir, `${++fileCount}.csv`);
  writeFileSync(filePath, typeof content === 'string' ? Buffer.from(content) : content);
  const expected = await readWithCsvParse(filePath, encoding, separator);
  const actual = await readWithImporter(filePath, encoding, separator);
  // csv-parse's stream drops the records it had read but not handed out when it fails; the import fails whole either way.
  const records = expected.error ? actual.records.slice(0, expected.records.length) : actual.records;
  expect({ content: content.toString(), records, error: actual.error }).toEqual({ content: content.toString(), ...expected });
  return actual;
}

function random(seed: number) {
  let state = seed >>> 0;
  return (below: number) => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return (state >>> 8) % below;
  };
}

/** Text made of the characters that steer a CSV reader, plus letters, Cyrillic and an emoji. */
function randomCsv(next: (below: number) => number, length: number, separator: string): string {
  const pieces = [
    'a',
    'b',
    'Я',
    '😀',
    ' ',
    separator,
    separator,
    '"',
    '"',
    '""',
    '\n',
    '\r\n',
    '\r',
    'ann@example.com',
    '+380501234567',
  ];
  let text = '';
  while (text.length < length) text += pieces[next(pieces.length)];
  return text;
}

describe('the fast CSV reader reads every file exactly as csv-parse', () => {
  it('on the crafted import files', async () => {
    await expectSameReading(files.utf8Comma);
    await expectSameReading(files.utf8BomSemicolonCrlf, 'utf-8', ';');
    await expectSameReading(files.cp1251Semicolon, 'windows-1251', ';');
    await expectSameReading(files.utf8Tab, 'utf-8', '\t');
    await expectSameReading(files.quotedMultiline);
    await expectSameReading(files.emailsTxt, 'utf-8', null);
    await expectSameReading(files.phonesTxt, 'utf-8', null);
    await expectSameReading(files.wrongColumnCounts);
    await expectSameReading(files.invalidValues);
    await expectSameReading(files.headerWithoutAddresses, 'utf-8', null);
    const binary = await expectSameReading(files.garbageTail(3000));
    expect(binary.error).toEqual({ code: 'import.binaryContent', line: 3002 });
  });

  it('on quotes in every position, mixed line ends, blank lines and a missing last line end', async () => {
    const cases = [
      'a,b\r\nc,d\ne,f\r\n',
      'a,b\nc,d\r\ne,f\r',
      'a,b\rc,d\r\ne,f',
      '"a\r\nb",c\r\nd,e\n',
      '"a","b"\n"c""d",e\n',
      'x"y,z\n"q"r,s\n',
      '"",""\n,\n\n\n"x"\n',
      '"a"b"c",d\n',
      '"a",\n"b" ,c\n',
      'a,"b\n\nc"\n\n\nd,e',
      '\uFEFFemail,name\nann@example.com,"Ann ""A"""\n',
      'only one line without an end',
      '"quoted last line"',
      '\n\n\r\n',
      '',
      'a,b\n"never closed\nc,d\n',
      '"a"\u0000,b\n',
      Buffer.from([0x61, 0x2c, 0xe2, 0x2c, 0x0a, 0xf0, 0x9f, 0x98, 0x0a, 0x63, 0x0a]),
    ];
    for (const content of cases) await expectSameReading(content);
    await expectSameReading('a;b;"c;d"\r\n1;2;3\r\n', 'utf-8', ';');
    await expectSameReading('one\r\n"two\r\nlines"\r\nthree', 'utf-8', null);
  });

  it('on UTF-16 and Windows-1251 text', async () => {
    const text = 'email;имя\r\nann@example.com;"Ганна ""Г"""\r\nbob@example.com;Борис\r\n';
    await expectSameReading(Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(text, 'utf-16le')]), 'utf-16le', ';');
    await expectSameReading(Buffer.concat([Buffer.from([0xfe, 0xff]), iconv.encode(text, 'utf-16be')]), 'utf-16be', ';');
    await expectSameReading(iconv.encode(text, 'win1251'), 'windows-1251', ';');
  });

  it('on records near and over the size limit', async () => {
    await expectSameReading(`a,${'x'.repeat(MAX_RECORD - 10)}\nb,c\n`);
    await expectSameReading(`a,${'x'.repeat(MAX_RECORD + 10)}\nb,c\n`);
    await expectSameReading(`a,${'я'.repeat(MAX_RECORD / 2 - 1)}\nb,c\n`);
    await expectSameReading(`a,${'я'.repeat(MAX_RECORD / 2 + 1)}\nb,c\n`);
    await expectSameReading(`a,"${'x\n'.repeat(MAX_RECORD / 2 + 10)}"\nb,c\n`);
    await expectSameReading(`ok,line\n"${'never closed '.repeat(20_000)}`);
  });

  it('on a thousand random files', async () => {
    const next = random(424242);
    for (let round = 0; round < 1000; round++) {
      const separator = ([',', ';', '\t'] as const)[round % 3]!;
      await expectSameReading(randomCsv(next, 1 + next(120), separator), 'utf-8', separator);
    }
  });

  it('whatever the chunks the text comes in', () => {
    const next = random(99);
    for (let round = 0; round < 500; round++) {
      const text = randomCsv(next, 1 + next(200), ',');
      const whole = new CsvTokenizer(',', MAX_RECORD);
      const expected = [...whole.push(text, true)];
      const chunked = new CsvTokenizer(',', MAX_RECORD);
      const found: string[][] = [];
      let at = 0;
      while (at < text.length) {
        const size = 1 + next(8);
        found.push(...chunked.push(text.slice(at, at + size), false));
        at += size;
      }
      found.push(...chunked.push('', true));
      expect({ text, found, failure: chunked.failure }).toEqual({ text, found: expected, failure: whole.failure });
    }
  });
});

describe('UTF-16 text the database could not store', () => {
  it('marks a field holding half a surrogate pair unreadable, as csv-parse did by re-encoding it', async () => {
    const text = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      iconv.encode('email,name\r\nann@example.com,Ann\r\nbob@example.com,B', 'utf-16le'),
      Buffer.from([0x00, 0xd8]),
      iconv.encode('b\r\ncat@example.com,😀\r\n', 'utf-16le'),
    ]);
    const { records } = await expectSameReading(text, 'utf-16le', ',');
    expect(records.map((record) => record.unreadable)).toEqual([false, false, true, false]);
  });
});
