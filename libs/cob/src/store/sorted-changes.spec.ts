import { withChanges } from './sorted-changes.js';
import { generator } from '../testing/random.testing.js';

// A sorted array changed in a few places must be the array filtered and sorted again.

interface Item {
  readonly time: number;
  readonly id: string;
}

// Newest first, ties by id: the order of listings.
const newestFirst = (a: Item, b: Item): number => b.time - a.time || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

describe('withChanges', () => {
  it('equals the array filtered and sorted again, whatever leaves and comes in', () => {
    for (let seed = 1; seed <= 200; seed += 1) {
      const next = generator(seed);
      const ids = new Set<string>();
      const item = (): Item => {
        let id: string;
        do id = `i${next(5000)}`;
        while (ids.has(id));
        ids.add(id);
        // Few distinct times, so ties are common.
        return { time: next(20), id };
      };
      const sorted = Array.from({ length: next(60) }, item).sort(newestFirst);
      const removed = sorted.filter(() => next(6) === 0);
      const added = Array.from({ length: next(8) }, item);
      const expected = [...sorted.filter((element) => !removed.includes(element)), ...added].sort(newestFirst);
      const before = [...sorted];
      expect({ seed, result: withChanges(sorted, removed, added, newestFirst) }).toEqual({ seed, result: expected });
      expect(sorted).toEqual(before);
    }
  });

  it('keeps the elements themselves and refuses to remove one it does not hold', () => {
    const items: Item[] = [
      { time: 3, id: 'a' },
      { time: 2, id: 'b' },
    ];
    const result = withChanges(items, [], [{ time: 2, id: 'a' }], newestFirst);
    expect(result[0]).toBe(items[0]);
    expect(result[2]).toBe(items[1]);
    expect(() => withChanges(items, [{ time: 3, id: 'a' }], [], newestFirst)).toThrow('not in the array');
  });
});
