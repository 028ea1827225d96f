/** Sniffs an upload's first 64 KB: whether it is text at all, its encoding, its separator and whether it has a header. */
import { parse } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { fieldOfHeader, looksLikeAddress } from './normalise.js';

export const SAMPLE_BYTES = 64 * 1024;

export const ENCODINGS = ['utf-8', 'windows-1251', 'utf-16le', 'utf-16be'] as const;
export type Encoding = (typeof ENCODINGS)[number];

export const SEPARATORS = [',', ';', '\t'] as const;
export type Separator = (typeof SEPARATORS)[number];

/** Share of C0 control bytes (other than tab and line breaks) above which a file is taken for binary. */
const MAX_CONTROL_SHARE = 0.01;
/** Share of non-ASCII bytes that must be Cyrillic letters for a file that is not UTF-8 to pass as Windows-1251. */
const MIN_CYRILLIC_SHARE = 0.9;
/** Records read to choose the separator. */
const SNIFFED_RECORDS = 50;
/** Share of sniffed records that must agree on their column count for a separator to be chosen. */
const MIN_CONSISTENT_SHARE = 0.5;

function isControlByte(byte: number): boolean {
  return (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) || byte === 0x7f;
}

/** Windows-1251 letters: А..я, Ё ё, and the Ukrainian and Belarusian Є є І і Ї ї Ґ ґ Ў ў. */
function isCp1251Letter(byte: number): boolean {
  return byte >= 0xc0 || [0xa8, 0xb8, 0xaa, 0xba, 0xb2, 0xb3, 0xaf, 0xbf, 0xa5, 0xb4, 0xa1, 0xa2].includes(byte);
}

function isUtf8(sample: Buffer): boolean {
  try {
    // Streaming mode tolerates a character cut at the sample's end.
    new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/** The encoding of a text file from its first bytes, or null when the bytes are not text. */
export function detectEncoding(sample: Buffer): Encoding | null {
  if (sample[0] === 0xff && sample[1] === 0xfe) return 'utf-16le';
  if (sample[0] === 0xfe && sample[1] === 0xff) return 'utf-16be';
  if (sample.includes(0)) return null;
  let controls = 0;
  let high = 0;
  let cyrillic = 0;
  for (const byte of sample) {
    if (isControlByte(byte)) controls++;
    else if (byte >= 0x80) {
      high++;
      if (isCp1251Letter(byte)) cyrillic++;
    }
  }
  if (controls > sample.length * MAX_CONTROL_SHARE) return null;
  if (isUtf8(sample)) return 'utf-8';
  // 0x98 is the one byte Windows-1251 leaves undefined.
  if (!sample.includes(0x98) && cyrillic >= high * MIN_CYRILLIC_SHARE) return 'windows-1251';
  return null;
}

/** The sample as text, cut after its last line break unless it is the whole file. */
export function decodeSample(sample: Buffer, encoding: Encoding, wholeFile: boolean): string {
  const text = iconv.decode(sample, encoding);
  if (wholeFile) return text;
  const lastBreak = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r'));
  return lastBreak > 0 ? text.slice(0, lastBreak) : text;
}

function columnCounts(text: string, separator: Separator): number[] {
  const records: string[][] = parse(text, {
    delimiter: separator,
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    to: SNIFFED_RECORDS,
  });
  return records.map((record) => record.length);
}

/** The separator most records agree on, reading quotes; null for a one-column file. */
export function detectSeparator(text: string): Separator | null {
  let best: { separator: Separator; columns: number; share: number } | null = null;
  for (const separator of SEPARATORS) {
    const counts = columnCounts(text, separator);
    if (counts.length === 0) continue;
    const frequency = new Map<number, number>();
    for (const count of counts) frequency.set(count, (frequency.get(count) ?? 0) + 1);
    const [columns, agreeing] = [...frequency].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]!;
    const share = agreeing / counts.length;
    if (columns < 2 || share < MIN_CONSISTENT_SHARE) continue;
    if (!best || share > best.share || (share === best.share && columns > best.columns)) best = { separator, columns, share };
  }
  return best?.separator ?? null;
}

/** A first record is a header when it holds no address while later ones do, or when it names a field. */
export function detectHeader(records: string[][]): boolean {
  const [first, ...rest] = records;
  if (!first || first.some(looksLikeAddress)) return false;
  return first.some((title) => fieldOfHeader(title) !== null) || rest.some((record) => record.some(looksLikeAddress));
}
