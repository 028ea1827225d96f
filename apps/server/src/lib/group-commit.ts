/**
 * Group commit: writes that arrive while one is running (or in the same round of I/O callbacks) are committed
 * together in the next transaction, so a burst costs a few transactions instead of one each. A caller's promise
 * settles only after its own items are committed; if a group fails, each caller's items are tried again alone, so
 * one caller's bad input never fails the others it was grouped with. With `gather`, a group waits a moment for more
 * items before it starts, for writers whose commits cost more than the wait (the sending engine's status writes).
 */
interface Waiting<T, R> {
  items: readonly T[];
  resolve: (results: R[]) => void;
  reject: (error: unknown) => void;
}

/** A group starts once it holds `items` items or `ms` after its first write, whichever comes first. */
export interface Gather {
  items: number;
  ms: number;
}

export class GroupCommit<T, R> {
  private waiting: Waiting<T, R>[] = [];
  private writing = false;
  private gathering: NodeJS.Timeout | undefined;

  /** `commit` writes items in one transaction and answers one result per item, in their order. */
  constructor(
    private readonly commit: (items: readonly T[]) => Promise<R[]>,
    private readonly maxItems: number,
    private readonly gather?: Gather,
  ) {}

  write(items: readonly T[]): Promise<R[]> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ items, resolve, reject });
      if (this.writing) return;
      if (this.gather && this.waiting.reduce((sum, entry) => sum + entry.items.length, 0) < this.gather.items) {
        this.gathering ??= setTimeout(() => this.begin(), this.gather.ms);
        return;
      }
      clearTimeout(this.gathering);
      this.gathering = undefined;
      this.writing = true;
      setImmediate(() => void this.drain());
    });
  }

  private begin(): void {
    this.gathering = undefined;
    if (this.writing) return;
    this.writing = true;
    void this.drain();
  }

  private async drain(): Promise<void> {
    while (this.waiting.length > 0) {
      const group: Waiting<T, R>[] = [];
      let count = 0;
      while (this.waiting.length > 0 && (group.length === 0 || count + this.waiting[0]!.items.length <= this.maxItems)) {
        const next = this.waiting.shift()!;
        count += next.items.length;
        group.push(next);
      }
      try {
        const results = await this.commit(group.flatMap((entry) => entry.items));
        let offset = 0;
        for (const entry of group) {
          entry.resolve(results.slice(offset, offset + entry.items.length));
          offset += entry.items.length;
        }
      } catch {
        for (const entry of group) await this.commit(entry.items).then(entry.resolve, entry.reject);
      }
    }
    this.writing = false;
  }
}
