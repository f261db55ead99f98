import fc from 'fast-check';
import { BoundedCache, type RemovalReason } from './bounded-cache.js';

/** A promise with its settle functions, so a test decides when a load finishes. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: Error) => void } {
  let resolve: (value: T) => void = () => undefined;
  let reject: (error: Error) => void = () => undefined;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('BoundedCache', () => {
  it('evicts the least recently used entry beyond its entry bound', () => {
    const removed: Array<[string, RemovalReason]> = [];
    const cache = new BoundedCache<string, number>({ maxEntries: 2, onRemove: (key, _value, reason) => removed.push([key, reason]) });
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect([cache.has('a'), cache.has('b'), cache.has('c')]).toEqual([true, false, true]);
    expect(removed).toEqual([['b', 'evicted']]);
    expect(cache.stats()).toMatchObject({ entries: 2, hits: 1, misses: 0, evictions: 1 });
  });

  it('evicts by total weight and refuses an entry heavier than the bound', () => {
    const cache = new BoundedCache<string, string>({ maxWeight: 10, weigh: (value) => value.length });
    cache.set('a', 'xxxx');
    cache.set('b', 'xxxx');
    cache.set('c', 'xxxx');
    expect([cache.has('a'), cache.has('b'), cache.has('c')]).toEqual([false, true, true]);
    expect(cache.weight).toBe(8);
    expect(cache.set('huge', 'x'.repeat(11))).toBe(false);
    expect(cache.has('huge')).toBe(false);
    expect(cache.weight).toBe(8);
  });

  it('takes an explicit weight over the weigh function', () => {
    const cache = new BoundedCache<string, string>({ maxWeight: 100, weigh: () => 1 });
    cache.set('a', 'x', 60);
    cache.set('b', 'y', 60);
    expect([cache.has('a'), cache.has('b')]).toEqual([false, true]);
  });

  it('evicts when a stored entry grows in place, keeping its recency', () => {
    const cache = new BoundedCache<string, string>({ maxWeight: 10 });
    cache.set('a', 'a', 3);
    cache.set('b', 'b', 3);
    expect(cache.reweigh('b', 8)).toBe(true);
    expect([cache.has('a'), cache.has('b')]).toEqual([false, true]);
    expect(cache.weight).toBe(8);
    expect(cache.reweigh('a', 1)).toBe(false);
  });

  it('reports replacements, deletions and clears to onRemove', () => {
    const removed: Array<[string, number, RemovalReason]> = [];
    const cache = new BoundedCache<string, number>({ onRemove: (key, value, reason) => removed.push([key, value, reason]) });
    cache.set('a', 1);
    cache.set('a', 2);
    cache.set('b', 3);
    expect(cache.delete('b')).toBe(true);
    expect(cache.delete('b')).toBe(false);
    cache.set('c', 4);
    cache.clear();
    expect(removed).toEqual([
      ['a', 1, 'replaced'],
      ['b', 3, 'deleted'],
      ['a', 2, 'cleared'],
      ['c', 4, 'cleared'],
    ]);
    expect(cache.stats()).toMatchObject({ entries: 0, weight: 0, evictions: 0 });
  });

  it.each([{ maxEntries: 0 }, { maxWeight: 0 }])('stores nothing with the bound %j', (bounds) => {
    const cache = new BoundedCache<string, number>(bounds);
    expect(cache.set('a', 1)).toBe(false);
    expect(cache.getOrCompute('b', () => 2)).toBe(2);
    expect(cache.size).toBe(0);
  });

  it('peeks without marking an entry used or counting', () => {
    const cache = new BoundedCache<string, number>({ maxEntries: 2 });
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.peek('a')).toBe(1);
    cache.set('c', 3);
    expect(cache.has('a')).toBe(false);
    expect(cache.stats()).toMatchObject({ hits: 0, misses: 0 });
  });

  it('lists its entries least recently used first, without marking them used', () => {
    const cache = new BoundedCache<string, number>({ maxEntries: 3 });
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    cache.get('a');
    expect(cache.list()).toEqual([
      ['b', 2],
      ['c', 3],
      ['a', 1],
    ]);
    cache.set('d', 4);
    expect(cache.list().map(([key]) => key)).toEqual(['c', 'a', 'd']);
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 0 });
  });

  it('computes a missing value once and stores it, also when it is undefined', () => {
    const cache = new BoundedCache<string, number | undefined>();
    let calls = 0;
    const compute = (): undefined => {
      calls += 1;
      return undefined;
    };
    expect(cache.getOrCompute('a', compute)).toBeUndefined();
    expect(cache.getOrCompute('a', compute)).toBeUndefined();
    expect(calls).toBe(1);
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 1 });
  });

  it('stores nothing when a computation throws', () => {
    const cache = new BoundedCache<string, number>();
    expect(() =>
      cache.getOrCompute('a', () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(cache.has('a')).toBe(false);
  });

  it('rejects invalid bounds', () => {
    expect(() => new BoundedCache({ maxEntries: -1 })).toThrow(RangeError);
    expect(() => new BoundedCache({ maxWeight: Number.NaN })).toThrow(RangeError);
  });
});

describe('BoundedCache.getOrLoad', () => {
  it('shares one running load between concurrent callers and stores its value', async () => {
    const cache = new BoundedCache<string, string>();
    const load = deferred<string>();
    let loads = 0;
    const start = (): Promise<string> => {
      loads += 1;
      return load.promise;
    };
    const first = cache.getOrLoad('k', start);
    const second = cache.getOrLoad('k', start);
    load.resolve('v');
    expect(await Promise.all([first, second])).toEqual(['v', 'v']);
    expect(await cache.getOrLoad('k', start)).toBe('v');
    expect(loads).toBe(1);
    expect(cache.stats()).toMatchObject({ entries: 1, hits: 2, misses: 1 });
  });

  it('does not remember a failed load: the next caller loads again', async () => {
    const cache = new BoundedCache<string, string>();
    await expect(cache.getOrLoad('k', () => Promise.reject(new Error('gone')))).rejects.toThrow('gone');
    expect(cache.has('k')).toBe(false);
    expect(await cache.getOrLoad('k', () => Promise.resolve('v'))).toBe('v');
  });

  it('turns a load that throws synchronously into a rejection', async () => {
    const cache = new BoundedCache<string, string>();
    const load = (): Promise<string> => {
      throw new Error('sync');
    };
    await expect(cache.getOrLoad('k', load)).rejects.toThrow('sync');
    expect(await cache.getOrLoad('k', () => Promise.resolve('v'))).toBe('v');
  });

  it('does not store the result of a load overtaken by delete, set or clear', async () => {
    const cache = new BoundedCache<string, string>();
    const stale = deferred<string>();
    const pending = cache.getOrLoad('k', () => stale.promise);
    cache.delete('k');
    const fresh = cache.getOrLoad('k', () => Promise.resolve('new'));
    stale.resolve('old');
    expect(await pending).toBe('old');
    expect(await fresh).toBe('new');
    expect(cache.peek('k')).toBe('new');

    const overwritten = deferred<string>();
    const racing = cache.getOrLoad('i', () => overwritten.promise);
    cache.set('i', 'set');
    overwritten.resolve('loaded');
    expect(await racing).toBe('loaded');
    expect(cache.peek('i')).toBe('set');

    const cleared = deferred<string>();
    const dropped = cache.getOrLoad('j', () => cleared.promise);
    cache.clear();
    cleared.resolve('late');
    await dropped;
    expect(cache.has('j')).toBe(false);
  });

  it('weighs a loaded value when it arrives', async () => {
    const cache = new BoundedCache<string, Buffer>({ maxWeight: 10, weigh: (value) => value.length });
    await cache.getOrLoad('a', () => Promise.resolve(Buffer.alloc(6)));
    await cache.getOrLoad('b', () => Promise.resolve(Buffer.alloc(6)));
    expect([cache.has('a'), cache.has('b'), cache.weight]).toEqual([false, true, 6]);
  });
});

describe('BoundedCache against a reference model', () => {
  const operation = fc.oneof(
    fc.record({ kind: fc.constant('set' as const), key: fc.integer({ min: 0, max: 9 }), weight: fc.integer({ min: 0, max: 6 }) }),
    fc.record({ kind: fc.constantFrom('get' as const, 'delete' as const), key: fc.integer({ min: 0, max: 9 }) }),
  );

  it('holds the bounds and keeps exactly the most recently used entries that fit', () => {
    fc.assert(
      fc.property(
        fc.array(operation, { maxLength: 60 }),
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 0, max: 15 }),
        (operations, maxEntries, maxWeight) => {
          const cache = new BoundedCache<number, number>({ maxEntries, maxWeight });
          // The model: keys in recency order (oldest first) with their weights.
          let model: Array<[number, number]> = [];
          for (const op of operations) {
            const known = model.find(([key]) => key === op.key);
            model = model.filter(([key]) => key !== op.key);
            if (op.kind === 'set') {
              cache.set(op.key, op.key, op.weight);
              if (maxEntries >= 1 && op.weight <= maxWeight) model.push([op.key, op.weight]);
            } else if (op.kind === 'get') {
              expect(cache.get(op.key)).toBe(known === undefined ? undefined : op.key);
              if (known !== undefined) model.push(known);
            } else {
              cache.delete(op.key);
            }
            while (model.length > maxEntries || model.reduce((sum, [, weight]) => sum + weight, 0) > maxWeight) model.shift();
            expect(cache.size).toBe(model.length);
            expect(cache.weight).toBe(model.reduce((sum, [, weight]) => sum + weight, 0));
          }
          expect(model.every(([key]) => cache.has(key))).toBe(true);
        },
      ),
    );
  });
});
