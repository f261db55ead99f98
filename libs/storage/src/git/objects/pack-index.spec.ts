import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HeldIndexBytes, PackIndex, SharedReadBuffer } from './pack-index.js';

/** Ids of a synthetic index: sorted, with runs that share their first 8 bytes and differ after. */
function syntheticIds(count: number): Buffer[] {
  const ids: Buffer[] = [];
  while (ids.length < count) {
    const id = createHash('sha1').update(String(ids.length)).digest();
    id[0] = 0x10 + (ids.length % 0xe0); // byte 0x00 and the top bytes stay empty buckets
    ids.push(id);
    if (ids.length % 1000 === 0) {
      // Two more ids with the same first 8 bytes.
      for (const last of [0x01, 0x02]) {
        const twin = Buffer.from(id);
        twin[19] = (twin[19] as number) ^ last;
        ids.push(twin);
      }
    }
  }
  return ids.sort(Buffer.compare);
}

/** A version 2 `.idx` for `ids` at `offsets`; offsets of 2 GiB and more go to the 8-byte table. */
function indexFile(ids: readonly Buffer[], offsets: readonly number[]): Buffer {
  const fanout = Buffer.alloc(256 * 4);
  for (let byte = 0; byte < 256; byte += 1) fanout.writeUInt32BE(ids.filter((id) => (id[0] as number) <= byte).length, byte * 4);
  const small = Buffer.alloc(ids.length * 4);
  const large: Buffer[] = [];
  offsets.forEach((offset, at) => {
    if (offset < 2 ** 31) return small.writeUInt32BE(offset, at * 4);
    small.writeUInt32BE((0x80000000 | large.length) >>> 0, at * 4);
    const entry = Buffer.alloc(8);
    entry.writeBigUInt64BE(BigInt(offset));
    large.push(entry);
  });
  const header = Buffer.from([0xff, 0x74, 0x4f, 0x63, 0, 0, 0, 2]);
  return Buffer.concat([header, fanout, ...ids, Buffer.alloc(ids.length * 4), small, ...large, Buffer.alloc(40)]);
}

describe('PackIndex', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pack-index-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds every id of a big index before and after it turns hot, and no id that only begins like one', () => {
    const ids = syntheticIds(12_000);
    const offsets = ids.map((_, at) => (at === 77 ? 5_000_000_000 : 12 + at * 31));
    const file = path.join(dir, 'big.idx');
    writeFileSync(file, indexFile(ids, offsets));
    const index = PackIndex.open(file, { readBuffer: new SharedReadBuffer(), heldIndexBytes: new HeldIndexBytes() });
    try {
      expect(index.objectCount).toBe(ids.length);
      // Two rounds: the first 511 lookups read bucket by bucket, the rest use the held tables.
      for (let round = 0; round < 2; round += 1) {
        const found = ids.map((id) => index.offsetOf(id));
        expect(found).toEqual(offsets);
        for (const id of ids.slice(0, 600)) {
          const sameStart = Buffer.from(id);
          sameStart[12] = (sameStart[12] as number) ^ 0x80;
          expect(index.offsetOf(sameStart)).toBeUndefined();
        }
        expect(index.offsetOf(Buffer.alloc(20))).toBeUndefined();
        expect(index.offsetOf(Buffer.alloc(20, 0xff))).toBeUndefined();
      }
    } finally {
      index.close();
    }
  });
});
