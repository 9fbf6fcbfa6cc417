import { describe, expect, it } from 'vitest';
import { mapLimited } from '../../src/core/map-limited.js';

describe('mapLimited', () => {
  it('keeps the order of results and never has more than the limit in flight', async () => {
    let inFlight = 0;
    let peak = 0;
    const out = await mapLimited([5, 1, 4, 2, 3, 0, 6], 3, async (n, i) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, n));
      inFlight--;
      return `${i}:${n}`;
    });
    expect(out).toEqual(['0:5', '1:1', '2:4', '3:2', '4:3', '5:0', '6:6']);
    expect(peak).toBe(3);
  });

  it('handles an empty list and a limit above the length', async () => {
    expect(await mapLimited([], 4, () => Promise.resolve(1))).toEqual([]);
    expect(await mapLimited([1, 2], 10, (n) => Promise.resolve(n * 2))).toEqual([2, 4]);
  });
});
