import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { compress, negotiateEncoding } from './compression.js';

describe('negotiateEncoding', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['identity', null],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['BR;Q=1, GZIP;Q=1', 'br'],
    ['*', 'br'],
    ['*;q=0', null],
    ['gzip;q=0, *', 'br'],
    ['br;q=0, gzip;q=0, identity', null],
    ['deflate', null],
  ] as const)('chooses %p → %p', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
});

describe('compress', () => {
  it('produces gzip and br that decompress to the same bytes', async () => {
    const body = Buffer.from(JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ line: `text ${i}`, i }))));
    expect(gunzipSync(await compress(body, 'gzip')).equals(body)).toBe(true);
    expect(brotliDecompressSync(await compress(body, 'br')).equals(body)).toBe(true);
  });
});
