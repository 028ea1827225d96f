/** CSV lines for the files Herald hands out (exports, import reports), safe to open in a spreadsheet. */
import { escapeFormula } from './fields.js';

/** Excel reads a UTF-8 file as the local code page unless it starts with a byte order mark. */
export const UTF8_BOM = '\uFEFF';

/** A cell quoted when it holds the separator, a quote or a line break. */
export function quoteCell(value: string, separator = ','): string {
  return value.includes(separator) || /["\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** One line; text cells that a spreadsheet would run as formulas are escaped first. */
export function csvLine(cells: (string | number | null)[]): string {
  return `${cells.map((cell) => (typeof cell === 'string' ? quoteCell(escapeFormula(cell)) : (cell ?? ''))).join(',')}\r\n`;
}
