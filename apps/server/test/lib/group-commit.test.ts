import { describe, expect, it } from 'vitest';
import { GroupCommit } from '../../src/lib/group-commit.js';

describe('group commit', () => {
  it('commits the writes of one round together and answers each caller its own results', async () => {
    const commits: number[][] = [];
    const group = new GroupCommit<number, number>(async (items) => {
      commits.push([...items]);
      return items.map((item) => item * 10);
    }, 100);
    const answers = await Promise.all([group.write([1, 2]), group.write([3]), group.write([4, 5, 6])]);
    expect(answers).toEqual([[10, 20], [30], [40, 50, 60]]);
    expect(commits).toEqual([[1, 2, 3, 4, 5, 6]]);
  });

  it('keeps a group under its size and commits what arrives meanwhile in the next one', async () => {
    const commits: number[][] = [];
    const group = new GroupCommit<number, number>(async (items) => {
      commits.push([...items]);
      await new Promise((resolve) => setTimeout(resolve, 5));
      return [...items];
    }, 3);
    const first = Promise.all([group.write([1, 2]), group.write([3, 4])]);
    await new Promise((resolve) => setTimeout(resolve, 1));
    const later = group.write([5]);
    await Promise.all([first, later]);
    expect(commits).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
  });

  it('fails only the caller whose items fail: the others are committed alone', async () => {
    const group = new GroupCommit<number, number>(async (items) => {
      if (items.includes(13)) throw new Error('unlucky');
      return [...items];
    }, 100);
    const results = await Promise.allSettled([group.write([1]), group.write([13]), group.write([2])]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[2] as PromiseFulfilledResult<number[]>).value).toEqual([2]);
  });

  it('with gather, waits up to its time for more items, and starts at once when it holds enough', async () => {
    const gathered = (gather: { items: number; ms: number }) => {
      const commits: number[][] = [];
      const group = new GroupCommit<number, number>(
        async (items) => {
          commits.push([...items]);
          return [...items];
        },
        100,
        gather,
      );
      return { group, commits };
    };
    const waiting = gathered({ items: 100, ms: 30 });
    const first = waiting.group.write([1]);
    await new Promise((resolve) => setTimeout(resolve, 10));
    await Promise.all([first, waiting.group.write([2])]);
    expect(waiting.commits).toEqual([[1, 2]]);
    // A minute's wait would outlast the test: enough items must start the group at once.
    const full = gathered({ items: 4, ms: 60_000 });
    await Promise.all([full.group.write([3, 4]), full.group.write([5, 6])]);
    expect(full.commits).toEqual([[3, 4, 5, 6]]);
  });
});
