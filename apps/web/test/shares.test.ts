import { describe, expect, it } from 'vitest';
import { roundedShares } from '../src/utils/shares';

describe('roundedShares', () => {
  it('adds up to the whole in tenths of a per cent, as the counts do', () => {
    // Rounded one by one these read 86.6 % + 10.1 % + 3.4 % = 100.1 %.
    const shares = roundedShares([4328, 503, 169], 5000);
    expect(shares).toEqual([0.866, 0.1, 0.034]);
    expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
    expect(roundedShares([1, 1, 1], 3)).toEqual([0.334, 0.333, 0.333]);
    expect(roundedShares([5, 0], 10)).toEqual([0.5, 0]);
    expect(roundedShares([0], 0)).toEqual([0]);
  });
});
