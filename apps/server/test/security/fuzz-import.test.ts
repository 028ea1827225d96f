/**
 * Property-based checks of the contact importer: arbitrary bytes never crash the preview or an import, every row of a
 * file ends up imported or reported invalid with the line it starts on, and contacts written as CSV (quotes,
 * separators, line breaks, formulas, any script, several encodings) import back exactly.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quoteCell } from '../../src/contacts/csv.js';
import { escapeFormula } from '../../src/contacts/fields.js';
import { openRecords, UnreadableFileError } from '../../src/contacts/import/parse.js';
import { buildPreview } from '../../src/contacts/import/service.js';
import { AppError } from '../../src/http/errors.js';
import { type Client, clientOf } from '../contacts/api.js';
import { createTestApp, signUp, type TestApp } from '../helpers/app.js';

const dir = mkdtempSync(path.join(tmpdir(), 'herald-fuzz-import-'));
let t: TestApp;
let client: Client;
let fileCount = 0;

beforeAll(async () => {
  t = await createTestApp();
  client = clientOf(t, (await signUp(t.app)).token);
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Waits for an import to stop running; generous, as the machine running the suite may be busy. */
async function settled(importId: number) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const state = (await client.get(`/api/data/imports/${importId}`)).json();
    if (state.status !== 'running') return state;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`import ${importId} still running after two minutes`);
}

/** Uploads a file and imports it with the mapping given; answers the import once it has ended. */
async function importFile(listId: number, content: Buffer | string, mapping: Record<string, string>) {
  const uploaded = await client.upload(listId, 'contacts.csv', content);
  expect(uploaded.statusCode, uploaded.body).toBe(200);
  const { importId } = uploaded.json();
  const started = await client.post(`/api/data/imports/${importId}/start`, { mapping, mode: 'add' });
  expect(started.statusCode, started.body).toBe(200);
  return settled(importId);
}

function saved(bytes: Uint8Array): string {
  const filePath = path.join(dir, `${++fileCount}.csv`);
  writeFileSync(filePath, bytes);
  return filePath;
}

/** Bytes that look like a CSV file often enough to get past detection, and like anything at all otherwise. */
const csvishBytes = fc.oneof(
  fc.uint8Array({ maxLength: 2000 }),
  fc
    .array(
      fc.oneof(
        fc.constantFrom(',', ';', '\t', '"', '""', '\n', '\r\n', '\r', ' ', "'", '=', '\uFEFF', '\\'),
        fc.constantFrom('email', 'phone', 'name', 'ann@example.com', '+380501234567', 'Анна', '0501234567'),
        fc.string({ unit: 'grapheme', maxLength: 12 }),
        fc.string({ unit: 'binary', maxLength: 4 }),
      ),
      { maxLength: 200 },
    )
    .chain((pieces) =>
      fc
        .constantFrom('utf-8', 'windows-1251', 'utf-16le', 'utf-16be')
        .map((encoding) => new Uint8Array(iconv.encode(pieces.join(''), encoding, { addBOM: encoding.startsWith('utf-16') }))),
    ),
);

describe('reading arbitrary files', () => {
  it('previews any bytes or refuses them with a known reason', async () => {
    await fc.assert(
      fc.asyncProperty(csvishBytes, async (bytes) => {
        const filePath = saved(bytes);
        try {
          const preview = await buildPreview(filePath, bytes.length, {});
          expect(preview.rows.length).toBeLessThanOrEqual(10);
          for (const row of preview.rows) for (const field of row) expect(typeof field).toBe('string');
        } catch (error) {
          expect(error).toBeInstanceOf(AppError);
          expect((error as AppError).statusCode).toBeLessThan(500);
        }
      }),
      { numRuns: 300 },
    );
  }, 120_000);

  it('numbers every record by the line it starts on, whatever its quotes and line breaks', async () => {
    const cell = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 8 }),
      fc.constantFrom('"', 'a"b', '\n', '\r\n', 'x\ny', ',', ';'),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(cell, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 30 }),
        fc.constantFrom(',' as const, ';' as const, '\t' as const),
        async (rows, separator) => {
          const text = rows.map((row) => row.map((value) => quoteCell(value, separator)).join(separator)).join('\n');
          const expected: { line: number; fields: string[] }[] = [];
          let line = 1;
          for (const row of rows) {
            if (row.some((value) => value.trim() !== '')) expected.push({ line, fields: row });
            line += row.join('').split('\n').length;
          }
          const found: { line: number; fields: string[] }[] = [];
          for await (const record of openRecords(saved(Buffer.from(text)), { encoding: 'utf-8', separator }).records)
            found.push({ line: record.line, fields: record.fields });
          expect(found).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  }, 120_000);

  it('never throws anything but an unreadable-file error while reading records', async () => {
    await fc.assert(
      fc.asyncProperty(
        csvishBytes,
        fc.constantFrom(',' as const, ';' as const, '\t' as const, null),
        async (bytes, separator) => {
          try {
            for await (const record of openRecords(saved(bytes), { encoding: 'utf-8', separator }).records) {
              expect(record.line).toBeGreaterThan(0);
            }
          } catch (error) {
            expect(error).toBeInstanceOf(UnreadableFileError);
          }
        },
      ),
      { numRuns: 300 },
    );
  }, 120_000);
});

/** Control characters (but the line break) and U+FFFD make a row unreadable on purpose; contacts never hold them. */
const printable = (char: string) => {
  const code = char.codePointAt(0)!;
  return char === '\n' || (code >= 0x20 && code !== 0x7f && code !== 0xfffd);
};

/** A contact a CSV file can carry; names are trimmed, non-empty and within the 200-character limit. */
const contactName = (alphabet: 'any' | 'cp1251') =>
  (alphabet === 'any'
    ? fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 })
    : fc.string({
        unit: fc.constantFrom(...'abcXYZ 019,;"\'=+-@\nАБВгдеЁёІіЇїЄєҐґ'.split('')),
        minLength: 1,
        maxLength: 40,
      })
  )
    .map((name) => [...name].filter(printable).join('').trim())
    .filter((name) => name.length > 0 && name.length <= 200);

describe('importing through the API', () => {
  it('imports contacts written as CSV back exactly, in any supported encoding and separator', async () => {
    const encodingAndNames = fc
      .constantFrom('utf-8', 'utf-8 with BOM', 'windows-1251', 'utf-16le')
      .chain((encoding) =>
        fc.tuple(
          fc.constant(encoding),
          fc.array(contactName(encoding === 'windows-1251' ? 'cp1251' : 'any'), { minLength: 1, maxLength: 12 }),
        ),
      );
    await fc.assert(
      fc.asyncProperty(
        encodingAndNames,
        fc.constantFrom(',', ';', '\t'),
        fc.context(),
        async ([encoding, names], separator, context) => {
          const contacts = names.map((name, i) => ({ email: `Reader${i}.${fileCount}@Example.com`, name }));
          const text =
            ['email', 'name'].join(separator) +
            '\n' +
            contacts.map((c) => [c.email, escapeFormula(c.name)].map((v) => quoteCell(v, separator)).join(separator)).join('\n');
          const bytes =
            encoding === 'utf-8'
              ? Buffer.from(text)
              : encoding === 'utf-8 with BOM'
                ? Buffer.from(`\uFEFF${text}`)
                : iconv.encode(text, encoding, { addBOM: encoding === 'utf-16le' });
          context.log(JSON.stringify({ encoding, separator, text }));
          const listId = await client.createList();
          const done = await importFile(listId, bytes, { 0: 'email', 1: 'name' });
          expect(done).toMatchObject({ status: 'done', imported: contacts.length, invalid: 0, error: null });
          const stored = (await client.allContacts(listId)) as unknown as { email: string; name: string }[];
          expect(stored.map(({ email, name }) => ({ email, name }))).toEqual(
            contacts.map((c) => ({ email: c.email.toLowerCase(), name: c.name })),
          );
        },
      ),
      { numRuns: 8 },
    );
  }, 180_000);

  it('reports every row as imported or invalid with the line it starts on', async () => {
    const row = fc.oneof(
      fc.record({ valid: fc.constant(true), name: contactName('any') }),
      fc.record({
        valid: fc.constant(false),
        email: fc.constantFrom('not-an-email', 'a@b', '@example.com', 'x y@example.com', 'ann@exa mple.com', '"a"@x.org'),
        name: contactName('any'),
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 25 }), async (rows) => {
        const lines = ['email,name'];
        const invalidLines: number[] = [];
        let line = 2;
        rows.forEach((r, i) => {
          const email = r.valid ? `row${i}.${fileCount}@example.com` : (r as { email: string }).email;
          if (!r.valid) invalidLines.push(line);
          const text = `${quoteCell(email)},${quoteCell(escapeFormula(r.name))}`;
          lines.push(text);
          line += text.split('\n').length;
        });
        const listId = await client.createList();
        const done = await importFile(listId, `${lines.join('\n')}\n`, { 0: 'email', 1: 'name' });
        expect(done).toMatchObject({ status: 'done', rowsDone: rows.length, error: null });
        expect(done.imported + done.duplicates).toBe(rows.length - invalidLines.length);
        expect(done.invalid).toBe(invalidLines.length);
        const report = await client.get(`/api/data/imports/${done.id}/report.csv`);
        if (invalidLines.length === 0) return;
        expect(report.statusCode).toBe(200);
        const reported = parse(report.body, { bom: true, columns: true }) as { line: string }[];
        expect(reported.map((r) => Number(r.line))).toEqual(invalidLines);
      }),
      { numRuns: 10 },
    );
  }, 180_000);

  it('ends any upload previewed, refused or imported, never with an internal error', async () => {
    await fc.assert(
      fc.asyncProperty(csvishBytes, async (bytes) => {
        const listId = await client.createList();
        const uploaded = await client.upload(listId, 'fuzz.csv', Buffer.from(bytes));
        expect(uploaded.statusCode, uploaded.body).toBeLessThan(500);
        if (uploaded.statusCode !== 200) {
          expect(uploaded.json()).toMatchObject({ statusCode: uploaded.statusCode, key: expect.any(String) });
          return;
        }
        const { importId, preview } = uploaded.json();
        const started = await client.post(`/api/data/imports/${importId}/start`, {
          mapping: preview.suggestedMapping,
          mode: 'add',
        });
        expect(started.statusCode, started.body).toBeLessThan(500);
        if (started.statusCode !== 200) return;
        const done = await settled(importId);
        expect(['done', 'failed']).toContain(done.status);
        if (done.status === 'failed') expect(done.error?.key).toMatch(/^import\./);
        else expect(done.imported + done.updated + done.duplicates + done.invalid).toBe(done.rowsDone);
      }),
      { numRuns: 25 },
    );
  }, 180_000);
});
