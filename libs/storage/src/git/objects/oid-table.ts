/**
 * Commit ids numbered in the order they were added, held as raw 20-byte forms with an
 * open-addressing table of their numbers: about 30 bytes an id, where a `Map` of id strings
 * takes about 110 (the string, the map slot, the array holding it). What a history index of
 * 80,000 commits costs is mostly its ids, so this is what lets such an index fit its budget.
 */
import type { Oid } from './oid.js';

const RAW_BYTES = 20;
const EMPTY = -1;

export class OidTable {
  private raw: Buffer = Buffer.alloc(RAW_BYTES * 1024);
  private count = 0;
  /** Numbers of the ids, at the slot their first four bytes hash to (or a later free one); -1 free. */
  private slots = new Int32Array(2048).fill(EMPTY);
  /** A query id's raw form, written in place for every lookup. */
  private readonly query = Buffer.alloc(RAW_BYTES);

  /** Ids held. */
  get length(): number {
    return this.count;
  }

  /** Bytes held in memory. */
  get bytes(): number {
    return this.raw.length + this.slots.byteLength;
  }

  /** The ids as raw bytes, one after another in number order (a view: it changes with the next `add`). */
  get rawIds(): Buffer {
    return this.raw.subarray(0, this.count * RAW_BYTES);
  }

  /**
   * Adds `oid` (40 lower-case hex digits, not held yet: the caller checks) as the next number.
   * @returns its number
   */
  add(oid: Oid): number {
    if ((this.count + 1) * RAW_BYTES > this.raw.length) this.raw = grown(this.raw, this.raw.length * 2);
    if ((this.count + 1) * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    const id = this.count;
    this.raw.write(oid, id * RAW_BYTES, RAW_BYTES, 'hex');
    this.count += 1;
    this.place(id);
    return id;
  }

  /** The number of `oid`, or undefined when it is not held. */
  idOf(oid: Oid): number | undefined {
    if (this.query.write(oid, 0, RAW_BYTES, 'hex') !== RAW_BYTES) return undefined;
    const mask = this.slots.length - 1;
    for (let slot = this.query.readUInt32LE(0) & mask; ; slot = (slot + 1) & mask) {
      const id = this.slots[slot] as number;
      if (id === EMPTY) return undefined;
      if (this.query.compare(this.raw, id * RAW_BYTES, id * RAW_BYTES + RAW_BYTES) === 0) return id;
    }
  }

  /** The id numbered `id`. */
  at(id: number): Oid {
    return this.raw.toString('hex', id * RAW_BYTES, id * RAW_BYTES + RAW_BYTES) as Oid;
  }

  private place(id: number): void {
    const mask = this.slots.length - 1;
    let slot = this.raw.readUInt32LE(id * RAW_BYTES) & mask;
    while (this.slots[slot] !== EMPTY) slot = (slot + 1) & mask;
    this.slots[slot] = id;
  }

  private rehash(size: number): void {
    this.slots = new Int32Array(size).fill(EMPTY);
    for (let id = 0; id < this.count; id += 1) this.place(id);
  }
}

function grown(buffer: Buffer, size: number): Buffer {
  const bigger = Buffer.alloc(size);
  buffer.copy(bigger);
  return bigger;
}
