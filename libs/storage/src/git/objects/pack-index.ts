/**
 * A pack index (`.idx`, version 2; `gitformat-pack(5)`): which objects a pack holds and at
 * which offset. Lookups read only the fan-out bucket of the object's first byte, so a first
 * read of a big repository does not load a multi-megabyte index; small indexes (one per
 * fetch, typically) are read whole once, and a big one that turns hot keeps its lookup tables
 * (ids' first bytes and offsets) in memory.
 */
import { InvalidDataError } from '@forge-httpd/identity';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

const MAGIC = 0xff744f63;
const VERSION = 2;
const FANOUT_START = 8;
const NAMES_START = FANOUT_START + 256 * 4;
const OID_BYTES = 20;
/** Indexes up to this size are kept in memory whole; bigger ones are read bucket by bucket. */
const WHOLE_INDEX_BYTES = 256 * 1024;

/** Positional reads of one file, from memory or from an open descriptor. */
export interface ByteSource {
  /** Exactly `length` bytes at `position` (a short read means the file is damaged). */
  read(position: number, length: number): Buffer;
  /**
   * Like `read`, into one buffer shared by every source (reads of up to 256 KiB): the bytes are
   * valid until the next `readShared` anywhere, and save an allocation per read.
   */
  readShared(position: number, length: number): Buffer;
  readonly size: number;
  close(): void;
}

/**
 * Opens a file for positional reads: read whole when at most `wholeBytes`, otherwise through
 * a descriptor kept open until `close()`.
 * @param shared - the buffer `readShared` reads into
 * @throws the file system's error (ENOENT when the file is gone)
 */
export function openByteSource(file: string, wholeBytes: number, shared: SharedReadBuffer): ByteSource {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size > wholeBytes) return descriptorSource(fd, size, shared);
    const whole = readExactly(fd, 0, size);
    closeSync(fd);
    const read = (position: number, length: number): Buffer => {
      if (position < 0 || position + length > size) throw new InvalidDataError('pack', 'read past the end of the file');
      return whole.subarray(position, position + length);
    };
    return { size, read, readShared: read, close: () => undefined };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** A read that fits the shared buffer as it starts (a pack entry's first read). */
export const SHARED_READ_BYTES = 4096;
/**
 * The most {@link ByteSource.readShared} reads at once: the buffer grows to it when asked.
 * Why: a big index's fan-out bucket read into a buffer of its own for each of its first
 * lookups made megabytes of short-lived native memory per index opened.
 */
const MAX_SHARED_READ_BYTES = 256 * 1024;

/**
 * The one buffer every {@link ByteSource} of a runtime reads into with `readShared`: reads are
 * synchronous on one thread, so a read's bytes are used up before the next one starts.
 */
export class SharedReadBuffer {
  private buffer = Buffer.alloc(SHARED_READ_BYTES);

  /** The buffer, grown (up to {@link MAX_SHARED_READ_BYTES}) to hold `length` bytes. */
  holding(length: number): Buffer {
    if (length > this.buffer.length) this.buffer = Buffer.alloc(Math.min(MAX_SHARED_READ_BYTES, 2 ** Math.ceil(Math.log2(length))));
    return this.buffer;
  }
}

function descriptorSource(fd: number, size: number, shared: SharedReadBuffer): ByteSource {
  let open = true;
  const check = (position: number, length: number): void => {
    if (!open) throw new InvalidDataError('pack', 'file closed');
    if (position < 0 || position + length > size) throw new InvalidDataError('pack', 'read past the end of the file');
  };
  return {
    size,
    read: (position, length) => {
      check(position, length);
      return readExactly(fd, position, length);
    },
    readShared: (position, length) => {
      check(position, length);
      if (length > MAX_SHARED_READ_BYTES) return readExactly(fd, position, length);
      return readExactly(fd, position, length, shared.holding(length));
    },
    close: () => {
      if (open) closeSync(fd);
      open = false;
    },
  };
}

function readExactly(fd: number, position: number, length: number, into?: Buffer): Buffer {
  const buffer = into === undefined ? Buffer.allocUnsafe(length) : into.subarray(0, length);
  let done = 0;
  while (done < length) {
    const count = readSync(fd, buffer, done, length - done, position + done);
    if (count === 0) throw new InvalidDataError('pack', 'file shorter than expected');
    done += count;
  }
  return buffer;
}

/** Lookups after which a big index's tables are held in memory (a listing reading thousands of objects). */
const HOT_LOOKUPS = 512;
/** Big indexes' tables held at once, per runtime, in bytes; past it they stay bucket by bucket. */
const HELD_INDEX_BUDGET = 32 * 1024 * 1024;
/** Bytes of the tables held per object: an id's first 8 bytes and its 4-byte offset. */
const HELD_BYTES_PER_OBJECT = 12;
/** Ids read per step while the held tables are built (1 MiB of ids at a time, not the whole table). */
const HOLD_STEP_IDS = 52_428;

/** Bytes of big indexes' tables held in memory, against one budget shared by a runtime's indexes. */
export class HeldIndexBytes {
  private held = 0;

  /** Counts `bytes` as held, unless they would pass the budget (false). */
  tryHold(bytes: number): boolean {
    if (this.held + bytes > HELD_INDEX_BUDGET) return false;
    this.held += bytes;
    return true;
  }

  /** Forgets bytes {@link tryHold} counted. */
  release(bytes: number): void {
    this.held -= bytes;
  }
}

/** What the pack indexes of a runtime share: one read buffer, one budget for held tables. */
export interface PackIndexResources {
  readonly readBuffer: SharedReadBuffer;
  readonly heldIndexBytes: HeldIndexBytes;
}

/**
 * A hot index's lookup tables: the first 8 bytes of each id (two 32-bit halves) and each
 * 4-byte offset entry, 12 bytes per object where the whole file takes 28.
 *
 * Why: a big repository's whole index, held, was the largest block of memory outside the
 * budget. A match of the first 8 bytes is confirmed by reading the id's other 12 bytes from
 * the file (one read per object found): an id that differs only after them, which anyone can
 * write from an existing one, is not in the pack.
 */
interface HeldTables {
  readonly high: Uint32Array;
  readonly low: Uint32Array;
  readonly offsets: Uint32Array;
}

/** The bytes {@link readPackIndexFanout} reads: magic, version and fan-out table. */
export const PACK_INDEX_HEADER_BYTES = NAMES_START;

/**
 * Checks a pack index's header and reads its fan-out table (entry 255: the number of objects).
 * @param head - the first {@link PACK_INDEX_HEADER_BYTES} bytes of the file
 * @throws InvalidDataError when it is not a version 2 index or the fan-out decreases
 */
export function readPackIndexFanout(head: Buffer): Uint32Array {
  if (head.length < NAMES_START || head.readUInt32BE(0) !== MAGIC || head.readUInt32BE(4) !== VERSION)
    throw new InvalidDataError('pack', 'not a version 2 pack index');
  const fanout = new Uint32Array(256);
  for (let i = 0; i < 256; i += 1) {
    fanout[i] = head.readUInt32BE(FANOUT_START + i * 4);
    if (i > 0 && (fanout[i] as number) < (fanout[i - 1] as number)) throw new InvalidDataError('pack', 'pack index fan-out decreases');
  }
  return fanout;
}

/** The object ids and offsets of one pack. */
export class PackIndex {
  private lookups = 0;
  /** The lookup tables, once the index is hot and the budget allows. */
  private held: HeldTables | undefined;

  private constructor(
    private readonly source: ByteSource,
    private readonly fanout: Uint32Array,
    private readonly heldBytes: HeldIndexBytes,
  ) {}

  /**
   * Opens and checks an index file: magic, version, a non-decreasing fan-out and a size that
   * fits the object count.
   * @throws InvalidDataError for anything else, or the file system's error
   */
  static open(file: string, resources: PackIndexResources): PackIndex {
    const source = openByteSource(file, WHOLE_INDEX_BYTES, resources.readBuffer);
    try {
      const fanout = readPackIndexFanout(source.read(0, PACK_INDEX_HEADER_BYTES));
      const count = fanout[255] as number;
      // names, CRCs and 4-byte offsets, then two trailing checksums (large offsets may follow).
      if (source.size < NAMES_START + count * (OID_BYTES + 8) + 2 * OID_BYTES) throw new InvalidDataError('pack', 'pack index too short');
      return new PackIndex(source, fanout, resources.heldIndexBytes);
    } catch (error) {
      source.close();
      throw error;
    }
  }

  /** The checksum of the pack this index describes (the pack's own last 20 bytes). */
  packChecksum(): Buffer {
    return this.bytes(this.source.size - 2 * OID_BYTES, OID_BYTES);
  }

  /** Number of objects in the pack. */
  get objectCount(): number {
    return this.fanout[255] as number;
  }

  /**
   * The offset of an object in the pack.
   * @param oid - the 20 raw bytes of the id
   * @returns the offset, or undefined when the pack does not hold the object
   */
  offsetOf(oid: Buffer): number | undefined {
    const first = oid[0] as number;
    const low = first === 0 ? 0 : (this.fanout[first - 1] as number);
    const high = this.fanout[first] as number;
    if (low === high) return undefined;
    this.lookups += 1;
    if (this.lookups === HOT_LOOKUPS) this.hold();
    if (this.held !== undefined) return this.heldOffsetOf(this.held, oid, low, high);
    const names = this.bytes(NAMES_START + low * OID_BYTES, (high - low) * OID_BYTES);
    let lo = 0;
    let hi = high - low;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const order = oid.compare(names, mid * OID_BYTES, mid * OID_BYTES + OID_BYTES, 0, OID_BYTES);
      if (order === 0) return this.offsetAt(low + mid);
      if (order > 0) lo = mid + 1;
      else hi = mid;
    }
    return undefined;
  }

  close(): void {
    if (this.held !== undefined) this.heldBytes.release(this.objectCount * HELD_BYTES_PER_OBJECT);
    this.held = undefined;
    this.source.close();
  }

  private hold(): void {
    const count = this.objectCount;
    const bytes = count * HELD_BYTES_PER_OBJECT;
    if (this.source.size <= WHOLE_INDEX_BYTES || !this.heldBytes.tryHold(bytes)) return;
    const high = new Uint32Array(count);
    const low = new Uint32Array(count);
    this.readInSteps(NAMES_START, OID_BYTES, (entries, entry, at) => {
      high[entry] = entries.readUInt32BE(at);
      low[entry] = entries.readUInt32BE(at + 4);
    });
    const offsets = new Uint32Array(count);
    this.readInSteps(this.offsetsStart, 4, (entries, entry, at) => (offsets[entry] = entries.readUInt32BE(at)));
    this.held = { high, low, offsets };
  }

  /** Hands each entry of a table of `entryBytes`-byte entries (one per object) to `each`, read {@link HOLD_STEP_IDS} entries at a time. */
  private readInSteps(tableStart: number, entryBytes: number, each: (entries: Buffer, entry: number, at: number) => void): void {
    const count = this.objectCount;
    for (let start = 0; start < count; start += HOLD_STEP_IDS) {
      const step = Math.min(HOLD_STEP_IDS, count - start);
      const entries = this.source.read(tableStart + start * entryBytes, step * entryBytes);
      for (let index = 0; index < step; index += 1) each(entries, start + index, index * entryBytes);
    }
  }

  /** Where the table of 4-byte offsets starts: after the fan-out, the ids and their CRCs. */
  private get offsetsStart(): number {
    return NAMES_START + this.objectCount * (OID_BYTES + 4);
  }

  /** The first entry whose 8 first bytes are not below the id's, then each equal one confirmed from the file. */
  private heldOffsetOf(held: HeldTables, oid: Buffer, from: number, to: number): number | undefined {
    const wantHigh = oid.readUInt32BE(0);
    const wantLow = oid.readUInt32BE(4);
    let lo = from;
    let hi = to;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const midHigh = held.high[mid] as number;
      if (midHigh < wantHigh || (midHigh === wantHigh && (held.low[mid] as number) < wantLow)) lo = mid + 1;
      else hi = mid;
    }
    for (let at = lo; at < to && held.high[at] === wantHigh && held.low[at] === wantLow; at += 1) {
      const name = this.source.readShared(NAMES_START + at * OID_BYTES + 8, OID_BYTES - 8);
      if (oid.compare(name, 0, OID_BYTES - 8, 8, OID_BYTES) === 0) return this.entryOffset(held.offsets[at] as number);
    }
    return undefined;
  }

  private bytes(position: number, length: number): Buffer {
    // Views of the shared buffer are used up before the next read (a bucket is searched,
    // then its entry's offset read).
    return this.source.readShared(position, length);
  }

  private offsetAt(position: number): number {
    return this.entryOffset(this.bytes(this.offsetsStart + position * 4, 4).readUInt32BE(0));
  }

  /** The pack offset of a 4-byte offset entry (its top bit set: an index into the 8-byte offsets). */
  private entryOffset(small: number): number {
    if ((small & 0x80000000) === 0) return small;
    // Packs over 2 GiB: the entry points into the table of 8-byte offsets.
    const large = this.bytes(this.offsetsStart + this.objectCount * 4 + (small & 0x7fffffff) * 8, 8).readBigUInt64BE(0);
    if (large > BigInt(Number.MAX_SAFE_INTEGER)) throw new InvalidDataError('pack', 'pack offset out of range');
    return Number(large);
  }
}
