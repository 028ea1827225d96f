/**
 * Shares of a total rounded to `steps` (1000: tenths of a per cent) so that they add up to the whole, as the counts do:
 * each rounds down, and the steps left go to the largest remainders (86.6 % + 10.1 % + 3.4 % would read 100.1 %).
 */
export function roundedShares(counts: readonly number[], total: number, steps = 1000): number[] {
  if (total <= 0) return counts.map(() => 0);
  const exact = counts.map((count) => (count / total) * steps);
  const floors = exact.map(Math.floor);
  const left = Math.round((counts.reduce((sum, count) => sum + count, 0) / total) * steps) - floors.reduce((a, b) => a + b, 0);
  const byRemainder = exact
    .map((value, index) => ({ index, remainder: value - floors[index]! }))
    .sort((a, b) => b.remainder - a.remainder);
  for (const { index } of byRemainder.slice(0, Math.max(0, left))) floors[index]! += 1;
  return floors.map((units) => units / steps);
}
