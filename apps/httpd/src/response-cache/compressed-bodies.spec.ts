import { CompressedBodies } from './compressed-bodies.js';

/** A compression that counts its calls and answers `bytes` bytes, each call's filled with its number. */
function counting(bytes: number): { calls: () => number; compress: () => Promise<Buffer> } {
  let calls = 0;
  return {
    calls: () => calls,
    compress: () => {
      calls += 1;
      return Promise.resolve(Buffer.alloc(bytes, calls));
    },
  };
}

describe('CompressedBodies', () => {
  it('compresses a body seen once, keeps it when seen again, then answers from memory', async () => {
    const bodies = new CompressedBodies(64 * 1024);
    const gzip = counting(100);
    const first = await bodies.get('"a"', 'gzip', gzip.compress);
    expect(bodies.stats().entries).toBe(0);
    const second = await bodies.get('"a"', 'gzip', gzip.compress);
    const third = await bodies.get('"a"', 'gzip', gzip.compress);
    expect(gzip.calls()).toBe(2);
    expect(third).toBe(second);
    expect(first.equals(second)).toBe(false);
    expect(bodies.stats()).toMatchObject({ entries: 1, hits: 1 });
  });

  it('keeps each coding of a body apart', async () => {
    const bodies = new CompressedBodies(64 * 1024);
    const gzip = counting(10);
    const br = counting(20);
    for (let i = 0; i < 3; i += 1) {
      expect((await bodies.get('"a"', 'gzip', gzip.compress)).length).toBe(10);
      expect((await bodies.get('"a"', 'br', br.compress)).length).toBe(20);
    }
    expect([gzip.calls(), br.calls()]).toEqual([2, 2]);
  });

  it('lets concurrent requests for a kept body share one compression', async () => {
    const bodies = new CompressedBodies(64 * 1024);
    const gzip = counting(10);
    await bodies.get('"a"', 'gzip', gzip.compress);
    const answers = await Promise.all([1, 2, 3].map(() => bodies.get('"a"', 'gzip', gzip.compress)));
    expect(gzip.calls()).toBe(2);
    expect(new Set(answers).size).toBe(1);
  });

  it('stays within its bound, dropping the least recently used body first', async () => {
    const bodies = new CompressedBodies(4000);
    for (const etag of ['"a"', '"b"', '"c"']) {
      for (let i = 0; i < 2; i += 1) await bodies.get(etag, 'gzip', counting(1200).compress);
    }
    expect(bodies.stats().entries).toBe(2);
    expect(bodies.stats().bytes).toBeLessThanOrEqual(4000);
    const again = counting(1200);
    await bodies.get('"a"', 'gzip', again.compress);
    expect(again.calls()).toBe(1);
  });

  it('keeps nothing with a bound of 0', async () => {
    const bodies = new CompressedBodies(0);
    const gzip = counting(10);
    for (let i = 0; i < 3; i += 1) await bodies.get('"a"', 'gzip', gzip.compress);
    expect([gzip.calls(), bodies.stats().entries]).toEqual([3, 0]);
  });

  it('does not keep a failed compression', async () => {
    const bodies = new CompressedBodies(64 * 1024);
    const gzip = counting(10);
    await bodies.get('"a"', 'gzip', gzip.compress);
    await expect(bodies.get('"a"', 'gzip', () => Promise.reject(new Error('zlib')))).rejects.toThrow('zlib');
    await bodies.get('"a"', 'gzip', gzip.compress);
    await bodies.get('"a"', 'gzip', gzip.compress);
    expect([gzip.calls(), bodies.stats().entries]).toEqual([2, 1]);
  });
});
