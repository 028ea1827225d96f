/**
 * Group commit for the sending API: requests that arrive while a write is running are persisted together in
 * the next transaction, so a burst of single-message calls costs a few transactions instead of one each.
 * A request still gets its answer only after its own messages are committed.
 */
import type { Db } from '../db/database.js';
import { insertMessages, type NewMessage } from './ledger.js';

export interface Written {
  ids: number[];
  /** The created_at the rows were stored with. */
  now: number;
}

interface Waiting {
  messages: readonly NewMessage[];
  resolve: (written: Written) => void;
  reject: (error: unknown) => void;
}

/** Rows per group transaction; the ledger chunks its statements below that. */
const MAX_GROUP_ROWS = 2000;

export class MessageWriter {
  private waiting: Waiting[] = [];
  private writing = false;

  constructor(private readonly db: Db) {}

  write(messages: readonly NewMessage[]): Promise<Written> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ messages, resolve, reject });
      if (!this.writing) {
        this.writing = true;
        // After the current round of I/O callbacks: every request read in it joins the same transaction.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.waiting.length > 0) {
      const group: Waiting[] = [];
      let rows = 0;
      while (this.waiting.length > 0 && (group.length === 0 || rows + this.waiting[0]!.messages.length <= MAX_GROUP_ROWS)) {
        const next = this.waiting.shift()!;
        rows += next.messages.length;
        group.push(next);
      }
      const now = Date.now();
      try {
        const ids = await insertMessages(
          this.db,
          group.flatMap((entry) => entry.messages),
          now,
        );
        let offset = 0;
        for (const entry of group) {
          entry.resolve({ ids: ids.slice(offset, offset + entry.messages.length), now });
          offset += entry.messages.length;
        }
      } catch {
        // One request's failure must not fail the others it was grouped with: each is retried alone.
        for (const entry of group) {
          const alone = Date.now();
          await insertMessages(this.db, entry.messages, alone).then((ids) => entry.resolve({ ids, now: alone }), entry.reject);
        }
      }
    }
    this.writing = false;
  }
}
