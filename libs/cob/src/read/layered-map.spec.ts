import { LayeredMap } from './layered-map.js';
import { generator } from '../testing/random.testing.js';

// A map layered over another must read, count and iterate exactly as a plain map given the
// same changes, over chains of updates, through flattening, and leave the map it came from as it was.

const sorted = (map: ReadonlyMap<number, string>): Array<[number, string]> => [...map].sort(([a], [b]) => a - b);

describe('LayeredMap', () => {
  it('reads, counts and iterates as a plain map over chains of changes', () => {
    for (let seed = 1; seed <= 30; seed += 1) {
      const next = generator(seed);
      const plain = new Map<number, string>();
      for (let i = 0; i < 200; i += 1) plain.set(next(400), `v${i}`);
      let layered: ReadonlyMap<number, string> = new Map(plain);
      for (let step = 0; step < 40; step += 1) {
        // Mostly a few changes; at times enough to flatten the layer.
        const count = next(10) === 0 ? 1500 : next(6);
        const changes: Array<[number, string | undefined]> = [];
        for (let c = 0; c < count; c += 1) changes.push([next(3000), next(3) === 0 ? undefined : `s${step}c${c}`]);
        const before = sorted(layered);
        const updated = LayeredMap.with(layered, changes);
        for (const [key, value] of changes) {
          if (value === undefined) plain.delete(key);
          else plain.set(key, value);
        }
        // Compared as JSON once per step: jest's deep equality over every entry made this spec
        // the slowest of the unit tier.
        const probes: Array<[number, string | undefined, boolean]> = [];
        const expected: Array<[number, string | undefined, boolean]> = [];
        for (let probe = 0; probe < 50; probe += 1) {
          const key = next(3000);
          probes.push([key, updated.get(key), updated.has(key)]);
          expected.push([key, plain.get(key), plain.has(key)]);
        }
        const visits: Array<[number, string, boolean]> = [];
        updated.forEach((value, key, map) => visits.push([key, value, map === updated]));
        const actual = {
          seed,
          step,
          unchanged: sorted(layered),
          size: updated.size,
          entries: sorted(updated),
          probes,
          keys: [...updated.keys()].sort((a, b) => a - b),
          values: [...updated.values()].length,
          visits: visits.sort(([a], [b]) => a - b),
        };
        const wanted = {
          seed,
          step,
          unchanged: before,
          size: plain.size,
          entries: sorted(plain),
          probes: expected,
          keys: sorted(plain).map(([key]) => key),
          values: plain.size,
          visits: sorted(plain).map(([key, value]) => [key, value, true]),
        };
        expect(JSON.stringify(actual)).toBe(JSON.stringify(wanted));
        layered = updated;
      }
    }
  });

  it('shares its base: a chain of updates stays one layer deep', () => {
    const base = new Map([[1, 'a']]);
    let map: ReadonlyMap<number, string> = base;
    for (let i = 2; i < 100; i += 1) map = LayeredMap.with(map, [[i, `${i}`]]);
    expect(map).toBeInstanceOf(LayeredMap);
    expect(map.size).toBe(99);
    expect(base.size).toBe(1);
    expect((map as unknown as { base: unknown }).base).toBe(base);
  });
});
