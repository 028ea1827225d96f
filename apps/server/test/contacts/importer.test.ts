import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { escapeFormula, INVALID, normalisePhone, unescapeFormula } from '../../src/contacts/fields.js';
import { detectEncoding, detectHeader, detectSeparator } from '../../src/contacts/import/detect.js';
import { checkMapping, compileMapping, normaliseRecord, suggestMapping } from '../../src/contacts/import/normalise.js';
import { openRecords } from '../../src/contacts/import/parse.js';
import { buildPreview } from '../../src/contacts/import/service.js';
import * as files from '../fixtures/contacts/files.js';

const dir = mkdtempSync(path.join(tmpdir(), 'herald-importer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let fileCount = 0;
function saved(content: Buffer | string): { filePath: string; size: number } {
  const filePath = path.join(dir, `${++fileCount}.csv`);
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  writeFileSync(filePath, bytes);
  return { filePath, size: bytes.length };
}

async function preview(content: Buffer | string) {
  const { filePath, size } = saved(content);
  return buildPreview(filePath, size, {});
}

async function records(content: Buffer | string, separator: ',' | ';' | '\t' | null = ',') {
  const { filePath } = saved(content);
  const found: { fields: string[]; line: number }[] = [];
  for await (const { fields, line } of openRecords(filePath, { encoding: 'utf-8', separator }).records)
    found.push({ fields, line });
  return found;
}

describe('preview of crafted files', () => {
  it('reads UTF-8 with commas and a header', async () => {
    const result = await preview(files.utf8Comma);
    expect(result).toMatchObject({
      encoding: 'utf-8',
      separator: ',',
      hasHeader: true,
      header: ['email', 'phone', 'name', 'city'],
      columnCount: 4,
    });
    expect(result.rows[0]).toEqual(['ann@example.com', '+380501234567', 'Анна Коваль', 'Kyiv']);
    expect(result.suggestedMapping).toEqual({ 0: 'email', 1: 'phone', 2: 'name', 3: 'attribute:city' });
  });

  it('drops the byte order mark of UTF-8 and reads semicolons and CRLF', async () => {
    const result = await preview(files.utf8BomSemicolonCrlf);
    expect(result).toMatchObject({ encoding: 'utf-8', separator: ';', hasHeader: true, header: ['E-mail', 'Телефон', 'Имя'] });
    expect(result.rows).toEqual([
      ['ann@example.com', '+380501234567', 'Анна'],
      ['bob@example.com', '+380631234567', 'Борис'],
    ]);
    expect(result.suggestedMapping).toEqual({ 0: 'email', 1: 'phone', 2: 'name' });
  });

  it('recognises Windows-1251 and decodes Russian and Ukrainian letters', async () => {
    const result = await preview(files.cp1251Semicolon);
    expect(result).toMatchObject({ encoding: 'windows-1251', separator: ';', header: ['Email', 'Телефон', 'Имя', 'Город'] });
    expect(result.rows).toEqual([
      ['ivan@example.com', '+380501234567', 'Іван Петренко', 'Київ'],
      ['olga@example.com', '+79161234567', 'Ольга Ёлкина', 'Москва'],
    ]);
    expect(result.suggestedMapping['3']).toBe('attribute:Город');
  });

  it('reads tab-separated files', async () => {
    const result = await preview(files.utf8Tab);
    expect(result).toMatchObject({
      separator: '\t',
      header: ['email', 'name', 'plan'],
      rows: [
        ['ann@example.com', 'Ann', 'pro'],
        ['bob@example.com', 'Bob', 'free'],
      ],
    });
  });

  it('keeps separators, doubled quotes and line breaks inside quoted fields', async () => {
    const result = await preview(files.quotedMultiline);
    expect(result.separator).toBe(',');
    expect(result.rows).toEqual([
      ['ann@example.com', 'Ann, the first', 'She said "hi"\r\nand left'],
      ['bob@example.com', 'Bob', 'one\ntwo\nthree'],
      ['cat@example.com', 'Cat', 'plain'],
    ]);
  });

  it('reads a one-column TXT of e-mails without a header, skipping blank lines', async () => {
    const result = await preview(files.emailsTxt);
    expect(result).toMatchObject({ separator: null, hasHeader: false, header: null, columnCount: 1 });
    expect(result.rows).toEqual([['ann@example.com'], ['BOB@Example.com'], ['cat@example.com']]);
    expect(result.suggestedMapping).toEqual({ 0: 'email' });
  });

  it('reads a one-column TXT of phone numbers in any notation', async () => {
    const result = await preview(files.phonesTxt);
    expect(result).toMatchObject({ separator: null, hasHeader: false, columnCount: 1 });
    expect(result.suggestedMapping).toEqual({ 0: 'phone' });
  });

  it('finds no address in a file without one, with or without its header, and the mapping is then refused', async () => {
    const detected = await preview(files.headerWithoutAddresses);
    expect(detected.suggestedMapping).toEqual({ 0: 'skip', 1: 'skip' });
    const { filePath, size } = saved(files.headerWithoutAddresses);
    const withHeader = await buildPreview(filePath, size, { hasHeader: true });
    expect(withHeader.suggestedMapping).toEqual({ 0: 'attribute:city', 1: 'attribute:plan' });
    for (const result of [detected, withHeader]) {
      expect(checkMapping(result.suggestedMapping, result.columnCount)).toEqual([
        { field: 'mapping', key: 'import.mappingNoContact' },
      ]);
    }
  });

  it('refuses binary files, empty files and files of blank lines', async () => {
    await expect(preview(files.png)).rejects.toMatchObject({ statusCode: 400, key: 'upload.wrongFile' });
    await expect(preview('')).rejects.toMatchObject({ statusCode: 400, key: 'import.emptyFile' });
    await expect(preview('\r\n\n  \n')).rejects.toMatchObject({ statusCode: 400, key: 'import.emptyFile' });
  });
});

describe('detection', () => {
  it('tells UTF-8, UTF-16 with a byte order mark, Windows-1251 and binary apart', () => {
    expect(detectEncoding(Buffer.from('Привіт, світ'))).toBe('utf-8');
    expect(detectEncoding(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a,b\n', 'utf16le')]))).toBe('utf-16le');
    expect(detectEncoding(files.cp1251Semicolon)).toBe('windows-1251');
    expect(detectEncoding(files.png)).toBeNull();
    // Latin-1 accented text is neither UTF-8 nor mostly Cyrillic letters.
    expect(detectEncoding(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0xa9, 0xae, 0xb0, 0xb1, 0x0a]))).toBeNull();
  });

  it('picks the separator most lines agree on, ignoring ones inside quotes', () => {
    expect(detectSeparator('a;b;c\n1;"2,5";3\n4;5;6')).toBe(';');
    expect(detectSeparator('a,b\n"x;y",2\n"z;w",3')).toBe(',');
    expect(detectSeparator('a\tb\n1\t2')).toBe('\t');
    expect(detectSeparator('ann@example.com\nbob@example.com')).toBeNull();
  });

  it('takes a first line for a header when it holds no address but later lines do', () => {
    expect(detectHeader([['Mail'], ['ann@example.com']])).toBe(true);
    expect(detectHeader([['ann@example.com'], ['bob@example.com']])).toBe(false);
    expect(
      detectHeader([
        ['name', 'city'],
        ['Ann', 'Kyiv'],
      ]),
    ).toBe(true);
    expect(
      detectHeader([
        ['Ann', 'Kyiv'],
        ['Bob', 'Lviv'],
      ]),
    ).toBe(false);
  });
});

describe('records and line numbers', () => {
  it('numbers each record by the line it starts on, across quoted line breaks and blank lines', async () => {
    const found = await records(files.quotedMultiline);
    expect(found.map((record) => record.line)).toEqual([1, 2, 4, 7]);
    const blank = await records(files.emailsTxt, null);
    expect(blank.map((record) => record.line)).toEqual([1, 2, 4]);
  });

  it('fails the whole file on binary content, naming the line', async () => {
    const { filePath } = saved(files.garbageTail(3));
    const reading = (async () => {
      for await (const _record of openRecords(filePath, { encoding: 'utf-8', separator: ',' }).records);
    })();
    await expect(reading).rejects.toMatchObject({ key: 'import.binaryContent', params: { line: 5 } });
  });

  it('fails the whole file on a quote never closed', async () => {
    const reading = records('email,name\nann@example.com,"Ann\nbob@example.com,Bob\n');
    await expect(reading).rejects.toMatchObject({ key: 'import.unclosedQuote' });
  });
});

describe('normalising a record', () => {
  const mapping = compileMapping({ 0: 'email', 1: 'phone', 2: 'name', 3: 'attribute:city', 4: 'status' });
  const normalise = (fields: string[]) => normaliseRecord(fields, 7, mapping, 'UA');

  it('lower-cases e-mails, writes phones as E.164 with their country and keeps attributes', () => {
    expect(normalise([' Ann@Example.COM ', '050 123 45 67', 'Ann', 'Kyiv', 'Unsubscribed'])).toEqual([
      7,
      'ann@example.com',
      '+380501234567',
      'UA',
      'Ann',
      null,
      null,
      'unsubscribed',
      '{"city":"Kyiv"}',
      'ann',
    ]);
  });

  it('names what is wrong with a row', () => {
    expect(normalise(['not-an-email', '', '', '', ''])).toEqual({
      key: 'import.row.invalidEmail',
      params: { value: 'not-an-email' },
    });
    expect(normalise(['', '12345', '', '', ''])).toEqual({ key: 'import.row.invalidPhone', params: { value: '12345' } });
    expect(normalise(['', '', 'Ann', '', ''])).toEqual({ key: 'import.row.noContact', params: {} });
    expect(normalise(['ann@example.com', '', '', '', 'gone'])).toEqual({
      key: 'import.row.invalidStatus',
      params: { value: 'gone' },
    });
  });

  it('reads national numbers in the default country and international ones without it', () => {
    expect(normalisePhone('050 123 45 67', 'UA')).toEqual({ e164: '+380501234567', country: 'UA' });
    expect(normalisePhone('050 123 45 67', null)).toBe(INVALID);
    expect(normalisePhone('380501234567', null)).toEqual({ e164: '+380501234567', country: 'UA' });
    expect(normalisePhone('+7 916 123-45-67', 'UA')).toEqual({ e164: '+79161234567', country: 'RU' });
  });

  it('undoes the formula escaping of an export', () => {
    expect(unescapeFormula("'+380501234567")).toBe('+380501234567');
    expect(unescapeFormula("'plain")).toBe("'plain");
  });

  it('imports back exactly what an export escaped, a value that already starts with an apostrophe included', () => {
    for (const value of ["'+", "''=1", '=SUM(A1)', '-5', "'plain", 'plain', "'", '']) {
      expect(unescapeFormula(escapeFormula(value))).toBe(value);
    }
    expect(escapeFormula("'+")).toBe("''+");
  });

  it('suggests e-mail and phone columns from their values when there is no header', () => {
    expect(suggestMapping(null, [['Ann', 'ann@example.com', '+380501234567']], 3)).toEqual({ 0: 'skip', 1: 'email', 2: 'phone' });
  });

  it('refuses a mapping with an unknown target, a repeated field or a column out of range', () => {
    expect(checkMapping({ 0: 'email', 1: 'email', 2: 'nickname', 5: 'phone' }, 3)).toEqual([
      { field: 'mapping.1', key: 'import.mappingDuplicate' },
      { field: 'mapping.2', key: 'validation.invalidValue' },
      { field: 'mapping.5', key: 'validation.invalidValue' },
    ]);
    expect(checkMapping({ 0: 'attribute:bad name' }, 1)).toContainEqual({
      field: 'mapping.0',
      key: 'validation.invalidAttributeName',
    });
  });
});
