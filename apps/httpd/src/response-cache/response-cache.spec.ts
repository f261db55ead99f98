import { type CachedResponse, ResponseCache } from './response-cache.js';

const entry = (key: string, size: number): Omit<CachedResponse, 'bytes' | 'variants' | 'wire'> => ({
  key,
  status: 200,
  headers: {},
  body: Buffer.alloc(size),
  etag: '"e"',
  stateStamp: null,
});

describe('ResponseCache', () => {
  it('evicts the least recently used entries to stay within its byte bound', () => {
    const cache = new ResponseCache(20_000);
    const removed: string[] = [];
    cache.onRemove((gone) => removed.push(gone.key));
    // Past half the bound a key is kept on its second rendering (see the doorkeeper below).
    for (const key of ['a', 'b', 'c', 'd', 'd']) cache.set(entry(key, 2400));
    expect(cache.get('a')).toBeDefined();
    cache.set(entry('e', 2400));
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

  it('past half its bound, keeps a new key only on its second rendering', () => {
    // Entries of ~4.5 KB under a 20 KB bound: the third one passes half of it.
    const cache = new ResponseCache(20_000);
    for (const key of ['a', 'b', 'c']) expect(cache.set(entry(key, 2400))).not.toBeNull();
    expect(cache.set(entry('once', 2400))).toBeNull();
    expect(cache.set(entry('twice', 2400))).toBeNull();
    expect(cache.get('twice')).toBeUndefined();
    expect(cache.set(entry('twice', 2400))).not.toBeNull();
    expect(cache.get('twice')).toBeDefined();
    expect(cache.stats()).toMatchObject({ entries: 4, deferred: 2 });
    // A page asked for once does not push out the ones asked for again.
    for (let page = 0; page < 100; page += 1) cache.set(entry(`crawl-${page}`, 2400));
    expect(cache.stats().entries).toBe(4);
    expect(cache.stats().deferred).toBe(102);
    expect(cache.get('a')).toBeDefined();
  });

  it('keeps a first rendering past half its bound when the key was asked for again meanwhile', () => {
    const cache = new ResponseCache(20_000);
    cache.noteAskedAgain('early');
    for (const key of ['a', 'b', 'c']) cache.set(entry(key, 2400));
    // Asked for again below half the bound: nothing to remember, every answer is kept there.
    expect(cache.set(entry('early', 2400))).toBeNull();
    cache.noteAskedAgain('burst');
    cache.noteAskedAgain('burst');
    expect(cache.set(entry('burst', 2400))).not.toBeNull();
    expect(cache.stats().deferred).toBe(1);
  });

  it('forgets the keys it has seen once after 65,536 of them, and then counts them as new', () => {
    const cache = new ResponseCache(20_000);
    for (const key of ['a', 'b', 'c']) cache.set(entry(key, 2400));
    expect(cache.set(entry('old', 2400))).toBeNull();
    for (let key = 0; key < 65_536; key += 1) cache.set(entry(`k${key}`, 2400));
    expect(cache.set(entry('old', 2400))).toBeNull();
    expect(cache.set(entry('old', 2400))).not.toBeNull();
  });

  it('stores nothing when its bound is 0', () => {
    const cache = new ResponseCache(0);
    expect(cache.set(entry('a', 1))).toBeNull();
  });
});
