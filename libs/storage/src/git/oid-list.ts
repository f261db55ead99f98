/**
 * A list of commit ids held as their raw 20-byte forms, one after another.
 *
 * Why: a long range page (`/diff/{base}/{oid}` over a whole history) holds the ids of the
 * commits still to read while its answer is written, which takes as long as the client reads.
 * As an array of strings split from `rev-list`'s output, 50,000 ids held ~4 MB: the output as
 * one string (outside the JS heap past 1 MB), a string per id and the array. Here they take
 * 1 MB, and ids become strings only a chunk at a time (tools/bench/README.md, "Long ranges
 * and their ids").
 */
import { InvalidOidError, isOid, type Oid } from './oid.js';

const RAW_BYTES = 20;
const HEX_LINE_BYTES = 41;
const NEWLINE = 0x0a;

export class OidList {
  /** The empty list. */
  static readonly EMPTY = new OidList(Buffer.alloc(0));

  private constructor(private readonly raw: Buffer) {}

  /**
   * The list of `oids`, in their order.
   * @throws InvalidOidError when one is not 40 lower-case hex digits
   */
  static of(oids: readonly Oid[]): OidList {
    const raw = Buffer.allocUnsafeSlow(oids.length * RAW_BYTES);
    oids.forEach((oid, at) => {
      // `write` would stop silently at the first byte that is not hex.
      if (!isOid(oid)) throw new InvalidOidError();
      raw.write(oid, at * RAW_BYTES, RAW_BYTES, 'hex');
    });
    return new OidList(raw);
  }

  /**
   * The ids of `git rev-list` output: one lower-case hex id and a newline per line.
   * @returns the list, or null when the output is not only such lines (the caller parses it as text)
   */
  static fromLines(output: Buffer): OidList | null {
    if (output.length % HEX_LINE_BYTES !== 0) return null;
    const count = output.length / HEX_LINE_BYTES;
    const raw = Buffer.allocUnsafeSlow(count * RAW_BYTES);
    for (let line = 0; line < count; line++) {
      const start = line * HEX_LINE_BYTES;
      if (output[start + 40] !== NEWLINE) return null;
      for (let at = 0; at < RAW_BYTES; at++) {
        const high = nibble(output[start + 2 * at] as number);
        const low = nibble(output[start + 2 * at + 1] as number);
        if (high < 0 || low < 0) return null;
        raw[line * RAW_BYTES + at] = (high << 4) | low;
      }
    }
    return new OidList(raw);
  }

  get length(): number {
    return this.raw.length / RAW_BYTES;
  }

  /** The ids from `start` up to (excluding) `end`, as strings of their own. */
  slice(start: number, end = this.length): Oid[] {
    const from = Math.max(0, Math.min(start, this.length));
    const to = Math.max(from, Math.min(end, this.length));
    const oids: Oid[] = [];
    for (let at = from; at < to; at++) oids.push(this.raw.toString('hex', at * RAW_BYTES, (at + 1) * RAW_BYTES) as Oid);
    return oids;
  }

  toArray(): Oid[] {
    return this.slice(0);
  }

  /** Position of the first `oid`; -1 when absent. */
  indexOf(oid: Oid): number {
    if (!isOid(oid)) return -1;
    const needle = Buffer.from(oid, 'hex');
    for (let found = this.raw.indexOf(needle); found >= 0; found = this.raw.indexOf(needle, found + 1)) {
      // Only a match that starts an id counts (the bytes could also span two ids).
      if (found % RAW_BYTES === 0) return found / RAW_BYTES;
    }
    return -1;
  }

  /** The first `count` ids (sharing this list's bytes). */
  take(count: number): OidList {
    return new OidList(this.raw.subarray(0, Math.max(0, Math.min(count, this.length)) * RAW_BYTES));
  }
}

/** The value of a lower-case hex digit's byte; -1 for any other byte. */
function nibble(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  return -1;
}
