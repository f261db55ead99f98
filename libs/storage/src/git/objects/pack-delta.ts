/**
 * git's delta format (`gitformat-pack(5)`, "Deltified representation"): two sizes, then
 * instructions that copy ranges of the base or insert literal bytes. Every bound is checked:
 * a delta is read from disk and must not make us read or write outside the two buffers.
 */
import { InvalidDataError } from '@forge-httpd/identity';
import { keptBytes } from './kept-bytes.js';

/** The sizes a delta declares, and where its instructions start. */
export interface DeltaHeader {
  readonly baseSize: number;
  readonly targetSize: number;
  readonly instructionsAt: number;
}

/** Reads the two size varints at the start of a delta. */
export function readDeltaHeader(delta: Uint8Array): DeltaHeader {
  const base = readSize(delta, 0);
  const target = readSize(delta, base.next);
  return { baseSize: base.value, targetSize: target.value, instructionsAt: target.next };
}

function readSize(bytes: Uint8Array, start: number): { value: number; next: number } {
  let value = 0;
  let shift = 0;
  let at = start;
  for (;;) {
    if (at >= bytes.length || shift > 49) throw new InvalidDataError('pack', 'delta size is cut or too large');
    const byte = bytes[at] as number;
    at += 1;
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if ((byte & 0x80) === 0) return { value, next: at };
  }
}

/**
 * Builds the target of a delta.
 * @param base - the base object's content
 * @param delta - the inflated delta
 * @returns the target content
 * @throws InvalidDataError when the delta does not fit the base or its declared sizes
 */
export function applyDelta(base: Uint8Array, delta: Uint8Array): Buffer {
  const header = readDeltaHeader(delta);
  if (header.baseSize !== base.length) throw new InvalidDataError('pack', 'delta base size does not match');
  const target = keptBytes(header.targetSize);
  let out = 0;
  let at = header.instructionsAt;
  while (at < delta.length) {
    const op = delta[at] as number;
    at += 1;
    if ((op & 0x80) !== 0) {
      let offset = 0;
      let size = 0;
      for (let bit = 0; bit < 4; bit += 1) {
        if ((op & (1 << bit)) === 0) continue;
        if (at >= delta.length) throw new InvalidDataError('pack', 'delta copy is cut');
        offset += (delta[at] as number) * 2 ** (8 * bit);
        at += 1;
      }
      for (let bit = 0; bit < 3; bit += 1) {
        if ((op & (16 << bit)) === 0) continue;
        if (at >= delta.length) throw new InvalidDataError('pack', 'delta copy is cut');
        size |= (delta[at] as number) << (8 * bit);
        at += 1;
      }
      if (size === 0) size = 0x10000;
      if (offset + size > base.length || out + size > target.length) throw new InvalidDataError('pack', 'delta copy out of range');
      target.set(base.subarray(offset, offset + size), out);
      out += size;
    } else if (op !== 0) {
      if (at + op > delta.length || out + op > target.length) throw new InvalidDataError('pack', 'delta insert out of range');
      target.set(delta.subarray(at, at + op), out);
      out += op;
      at += op;
    } else {
      throw new InvalidDataError('pack', 'reserved delta instruction');
    }
  }
  if (out !== target.length) throw new InvalidDataError('pack', 'delta target size does not match');
  return target;
}
