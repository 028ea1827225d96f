/**
 * Group commit: writes that arrive while one is running (or in the same round of I/O callbacks) are committed
 * together in the next transaction, so a burst costs a few transactions instead of one each. A caller's promise
 * settles only after its own items are committed; if a group fails, each caller's items are tried again alone, so
 * one caller's bad input never fails the others it was grouped with.
 */
interface Waiting<T, R> {
  items: readonly T[];
  resolve: (results: R[]) => void;
  reject: (error: unknown) => void;
}

export class GroupCommit<T, R> {
  private waiting: Waiting<T, R>[] = [];
  private writing = false;

  /** `commit` writes items in one transaction and answers one result per item, in their order. */
  constructor(
    private readonly commit: (items: readonly T[]) => Promise<R[]>,
    private readonly maxItems: number,
  ) {}

  write(items: readonly T[]): Promise<R[]> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ items, resolve, reject });
      if (!this.writing) {
        this.writing = true;
        setImmediate(() => void this.drain());
      }
    });
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
