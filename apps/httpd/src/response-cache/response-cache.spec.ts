import { type CachedResponse, ResponseCache } from './response-cache.js';

const entry = (key: string, size: number): Omit<CachedResponse, 'bytes' | 'variants' | 'wire'> => ({
  key,
  status: 200,
  headers: {},
  body: Buffer.alloc(size),
  etag: '"e"',
  refsStamp: null,
});

describe('ResponseCache', () => {
  it('evicts the least recently used entries to stay within its byte bound', () => {
    const cache = new ResponseCache(20_000);
    const removed: string[] = [];
    cache.onRemove((gone) => removed.push(gone.key));
    for (const key of ['a', 'b', 'c', 'd']) cache.set(entry(key, 2400));
    expect(cache.get('a')).toBeDefined();
    cache.set(entry('e', 2400));
    expect(removed).toEqual(['b']);
    expect(cache.stats()).toMatchObject({ entries: 4, evictions: 1, hits: 1 });
    expect(cache.stats().bytes).toBeLessThanOrEqual(20_000);
  });

  it('does not keep an entry larger than a quarter of the bound', () => {
    const cache = new ResponseCache(10_000);
    expect(cache.set(entry('big', 3000))).toBeNull();
    expect(cache.get('big')).toBeUndefined();
  });

  it('charges compressed variants and evicts for them', () => {
    const cache = new ResponseCache(16_000);
    const first = cache.set(entry('a', 1000));
    const second = cache.set(entry('b', 1000));
    if (first === null || second === null) throw new Error('not stored');
    cache.addVariant(second, { coding: 'gzip', bytes: Buffer.alloc(10_000) });
    expect(cache.get('a')).toBeUndefined();
    expect(cache.touch(second)).toBe(true);
    expect(cache.touch(first)).toBe(false);
    expect(cache.stats().bytes).toBeLessThanOrEqual(16_000);
  });

  it('keeps a small body in a buffer of its own, not a slice of the shared pool', () => {
    const cache = new ResponseCache(100_000);
    const pooled = Buffer.from('{"small":true}');
    const stored = cache.set({ ...entry('a', 0), body: pooled });
    expect(stored?.body.equals(pooled)).toBe(true);
    expect(stored?.body.buffer.byteLength).toBe(pooled.length);
  });

  it('stores nothing when its bound is 0', () => {
    const cache = new ResponseCache(0);
    expect(cache.set(entry('a', 1))).toBeNull();
  });
});
