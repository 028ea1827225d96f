/** The CSV of an import's invalid rows (line, reason, row), written as the file is read. */

import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import type { Language } from '@herald/shared';
import { errorText } from '@herald/shared/error-messages';
import { csvLine, quoteCell, UTF8_BOM } from '../csv.js';
import type { Separator } from './detect.js';
import type { RowFailure } from './normalise.js';

/** Lines gathered before they are handed to the file. */
const BUFFERED_CHARS = 64 * 1024;

export class ReportWriter {
  #pending = '';

  private constructor(
    private readonly stream: WriteStream,
    private readonly language: Language,
    private readonly separator: Separator | null,
  ) {}

  static open(filePath: string, language: Language, separator: Separator | null): ReportWriter {
    const writer = new ReportWriter(createWriteStream(filePath), language, separator);
    writer.#pending = UTF8_BOM + csvLine(['line', 'reason', 'row']);
    return writer;
  }

  /** The row is written back as the file had it, so it can be fixed and imported again. */
  add(line: number, failure: RowFailure, fields: string[]): void {
    const row = fields.map((field) => quoteCell(field, this.separator ?? ',')).join(this.separator ?? '');
    this.#pending += csvLine([line, errorText(failure.key, this.language, failure.params), row]);
  }

  /** Writes what has gathered once there is enough of it, waiting for the disk when it falls behind. */
  async flush(force = false): Promise<void> {
    if (!force && this.#pending.length < BUFFERED_CHARS) return;
    const chunk = this.#pending;
    this.#pending = '';
    if (chunk && !this.stream.write(chunk)) await once(this.stream, 'drain');
  }

  async close(): Promise<void> {
    await this.flush(true);
    this.stream.end();
    await once(this.stream, 'close');
  }
}
