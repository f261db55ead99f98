/**
 * A list of commit ids held as their raw 20-byte forms, one after another.
 *
 * Why: a long range page (`/diff/{base}/{oid}` over a whole history) holds the ids of the
 * commits still to read while its answer is written, which takes as long as the client reads.
 * As an array of strings split from `rev-list`'s output they cost the output as one string, a
 * string per id and the array; here they take 20 bytes each, and ids become strings only a
 * chunk at a time.
 */
import { invalidOid, isOid, type Oid } from './oid.js';

const RAW_BYTES = 20;
const HEX_LINE_BYTES = 41;
const NEWLINE = 0x0a;

export class OidList {
  /** The empty list. */
  static readonly EMPTY = new OidList(Buffer.alloc(0));

  private constructor(private readonly raw: Buffer) {}

  /**
   * The list of `oids`, in their order.
   * @throws InvalidInputError when one is not 40 lower-case hex digits
   */
  static of(oids: readonly Oid[]): OidList {
    const raw = Buffer.allocUnsafeSlow(oids.length * RAW_BYTES);
    oids.forEach((oid, at) => {
      // `write` would stop silently at the first byte that is not hex.
      if (!isOid(oid)) throw invalidOid();
      raw.write(oid, at * RAW_BYTES, RAW_BYTES, 'hex');
    });
    return new OidList(raw);
  }

  /**
   * The ids of `git rev-list` output: one lower-case hex id and a newline per line.
   * @returns the list, or null when the output is not only such lines (the caller parses it as text)
   */
  static fromLines(output: Buffer): OidList | null {
    const reader = new OidLineReader();
    return reader.push(output) ? reader.finish() : null;
  }

  /**
   * The list of the raw ids in `raw`, 20 bytes each one after another (not copied).
   * @throws InvalidInputError when its length is not a multiple of 20
   */
  static fromRaw(raw: Buffer): OidList {
    if (raw.length % RAW_BYTES !== 0) throw invalidOid();
    return new OidList(raw);
  }

  get length(): number {
    return this.raw.length / RAW_BYTES;
  }

  /** Bytes this list keeps in memory: its ids' own, or the whole list it was taken from. */
  get retainedBytes(): number {
    return this.raw.buffer.byteLength;
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

/** Raw ids of the first block: most walks are a page or two of history (5 KB). */
const FIRST_BLOCK_IDS = 256;
/** Raw ids collected per further block before the list is joined (80 KB). */
const BLOCK_IDS = 4096;

/**
 * Reads `git rev-list` output chunk by chunk as it arrives, into an {@link OidList}.
 *
 * Why: a whole history's output joined first (plus the pipe's chunks it was joined from)
 * outlived the list made of it until the next full collection, so a miss flood of long ranges
 * held many such buffers at once. Here each chunk is done with once read.
 */
export class OidLineReader {
  private readonly blocks: Buffer[] = [];
  private block = Buffer.allocUnsafeSlow(FIRST_BLOCK_IDS * RAW_BYTES);
  private inBlock = 0;
  /** The start of a line cut by the chunk's end. */
  private readonly partial = Buffer.allocUnsafe(HEX_LINE_BYTES);
  private inPartial = 0;
  private valid = true;

  /**
   * Reads the lines of `chunk` (a line may continue in the next chunk).
   * @returns false once the output is not one lower-case hex id and a newline per line
   */
  push(chunk: Buffer): boolean {
    if (!this.valid) return false;
    let at = 0;
    if (this.inPartial > 0) {
      const taken = Math.min(HEX_LINE_BYTES - this.inPartial, chunk.length);
      chunk.copy(this.partial, this.inPartial, 0, taken);
      this.inPartial += taken;
      at = taken;
      if (this.inPartial < HEX_LINE_BYTES) return true;
      this.inPartial = 0;
      if (!this.line(this.partial, 0)) return (this.valid = false);
    }
    for (; at + HEX_LINE_BYTES <= chunk.length; at += HEX_LINE_BYTES) if (!this.line(chunk, at)) return (this.valid = false);
    chunk.copy(this.partial, 0, at);
    this.inPartial = chunk.length - at;
    return true;
  }

  /** @returns the ids read, or null when the output was not only whole id lines */
  finish(): OidList | null {
    if (!this.valid || this.inPartial > 0) return null;
    const used = this.block.subarray(0, this.inBlock * RAW_BYTES);
    // Always a copy of its own size: a short list kept in a cache holds no whole block.
    const raw = Buffer.allocUnsafeSlow(this.blocks.reduce((bytes, block) => bytes + block.length, 0) + used.length);
    let offset = 0;
    for (const block of this.blocks) offset += block.copy(raw, offset);
    used.copy(raw, offset);
    return OidList.fromRaw(raw);
  }

  private line(bytes: Buffer, start: number): boolean {
    if (bytes[start + 40] !== NEWLINE) return false;
    if (this.inBlock * RAW_BYTES === this.block.length) {
      this.blocks.push(this.block);
      this.block = Buffer.allocUnsafeSlow(BLOCK_IDS * RAW_BYTES);
      this.inBlock = 0;
    }
    const out = this.inBlock * RAW_BYTES;
    for (let at = 0; at < RAW_BYTES; at++) {
      const high = nibble(bytes[start + 2 * at] as number);
      const low = nibble(bytes[start + 2 * at + 1] as number);
      if (high < 0 || low < 0) return false;
      this.block[out + at] = (high << 4) | low;
    }
    this.inBlock += 1;
    return true;
  }
}

/** The value of a lower-case hex digit's byte; -1 for any other byte. */
function nibble(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  return -1;
}
