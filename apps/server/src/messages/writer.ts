/**
 * Group commit for the sending API: a burst of single-message calls costs a few transactions instead of one each.
 * A request still gets its answer only after its own messages are committed.
 */
import type { Db } from '../db/database.js';
import { GroupCommit } from '../lib/group-commit.js';
import { insertMessages, type NewMessage } from './ledger.js';

export interface Written {
  ids: number[];
  /** The created_at the rows were stored with. */
  now: number;
}

/** Rows per group transaction; the ledger chunks its statements below that. */
const MAX_GROUP_ROWS = 2000;

export class MessageWriter {
  private readonly group: GroupCommit<NewMessage, { id: number; now: number }>;

  constructor(db: Db) {
    this.group = new GroupCommit(async (messages) => {
      const now = Date.now();
      return (await insertMessages(db, messages, now)).map((id) => ({ id, now }));
    }, MAX_GROUP_ROWS);
  }

  async write(messages: readonly NewMessage[]): Promise<Written> {
    const written = await this.group.write(messages);
    return { ids: written.map((row) => row.id), now: written[0]?.now ?? Date.now() };
  }
}
