import { applyDelta, readDeltaHeader } from './pack-delta.js';

/** A delta in git's format: base size, target size, then raw instruction bytes. */
function delta(baseSize: number, targetSize: number, instructions: number[]): Buffer {
  const varint = (value: number) => {
    const bytes: number[] = [];
    do {
      bytes.push((value & 0x7f) | (value >= 0x80 ? 0x80 : 0));
      value = Math.floor(value / 128);
    } while (value > 0);
    return bytes;
  };
  return Buffer.from([...varint(baseSize), ...varint(targetSize), ...instructions]);
}

const base = Buffer.from('0123456789abcdefghij');

describe('applyDelta', () => {
  it('copies ranges of the base and inserts literal bytes', () => {
    // copy offset 10 size 6 ("abcdef"), insert "XY", copy offset 0 size 3 ("012")
    const target = applyDelta(base, delta(20, 11, [0x91, 10, 6, 2, 0x58, 0x59, 0x90, 3]));
    expect(target.toString()).toBe('abcdefXY012');
  });

  it('reads multi-byte sizes and offsets, and a copy size of 0 as 64 KiB', () => {
    const big = Buffer.alloc(0x10000 + 300, 7);
    big.write('end', 0x10000 + 297);
    // copy offset 0x012c (two offset bytes) size 0 (no size bytes) = 0x10000 bytes
    const target = applyDelta(big, delta(big.length, 0x10000, [0x83, 0x2c, 0x01]));
    expect(target.length).toBe(0x10000);
    expect(target.subarray(-3).toString()).toBe('end');
    expect(readDeltaHeader(delta(300, 0x10000, [])).targetSize).toBe(0x10000);
  });

  it('refuses deltas that do not fit their base or their declared sizes', () => {
    expect(() => applyDelta(base, delta(19, 3, [0x90, 3]))).toThrow('base size');
    expect(() => applyDelta(base, delta(20, 3, [0x91, 18, 3]))).toThrow('out of range');
    expect(() => applyDelta(base, delta(20, 2, [0x90, 3]))).toThrow('out of range');
    expect(() => applyDelta(base, delta(20, 3, [3, 0x41]))).toThrow('out of range');
    expect(() => applyDelta(base, delta(20, 4, [0x90, 3]))).toThrow('target size');
    expect(() => applyDelta(base, delta(20, 1, [0]))).toThrow('reserved');
    expect(() => applyDelta(base, delta(20, 1, [0x91, 10]))).toThrow('cut');
    expect(() => readDeltaHeader(Buffer.from([0x80, 0x80]))).toThrow('cut');
  });
});
