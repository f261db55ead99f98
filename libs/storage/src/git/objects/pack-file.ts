/**
 * Entries of a pack file (`.pack`, versions 2 and 3; `gitformat-pack(5)`): a type-and-size
 * header, an optional delta base (a relative offset or an object id), then zlib data.
 */
import { InvalidDataError } from '@forge-httpd/identity';
import { constants, inflateSync } from 'node:zlib';
import { readDeltaHeader, type DeltaHeader } from './pack-delta.js';
import type { EntryInflater } from './entry-inflater.js';
import { openByteSource, SHARED_READ_BYTES, type ByteSource, type SharedReadBuffer } from './pack-index.js';

/** Pack entry types as stored (3 bits of the entry header). */
export const PACK_COMMIT = 1;
export const PACK_TREE = 2;
export const PACK_BLOB = 3;
export const PACK_TAG = 4;
const PACK_OFS_DELTA = 6;
const PACK_REF_DELTA = 7;

/** One entry's header: what follows it and where its zlib data starts. */
export interface PackEntry {
  readonly type: number;
  /** The inflated size: the object's for whole objects, the delta's for deltas. */
  readonly size: number;
  /** For offset deltas, the base entry's offset in this pack. */
  readonly baseOffset?: number;
  /** For reference deltas, the base object's raw id. */
  readonly baseOid?: Buffer;
  /**
   * The entry's bytes from its header on, when the first read already holds all its data.
   * Valid only until the next {@link PackFile.entry} call of any pack (a shared buffer).
   */
  readonly bytes: Buffer;
  readonly dataAt: number;
}

/**
 * Packs are always read through a descriptor, never copied whole: a pack damaged or cut on
 * disk must fail its reads (and send them to git) as soon as it is, not be served from memory.
 */
const WHOLE_PACK_BYTES = 0;
/** The first read of an entry: enough for the header and most small objects' data. */
const FIRST_READ_BYTES = SHARED_READ_BYTES;
/** Enough for any entry header: type and size varint, then a base offset or a base id. */
export const HEADER_READ_BYTES = 32;
const TRAILER_BYTES = 20;

/** What the pack files of a runtime share: one read buffer, one inflate stream. */
export interface PackFileResources {
  readonly readBuffer: SharedReadBuffer;
  readonly inflater: EntryInflater;
}

export class PackFile {
  private constructor(
    readonly file: string,
    private readonly source: ByteSource,
    private readonly inflater: EntryInflater,
  ) {}

  /**
   * Opens a pack and checks it against its index: object count, and the trailing checksum
   * (git refuses a pack whose trailer does not match its index, e.g. one cut short).
   * @throws InvalidDataError, or the file system's error
   */
  static open(file: string, index: { readonly objectCount: number; packChecksum(): Buffer }, resources: PackFileResources): PackFile {
    const source = openByteSource(file, WHOLE_PACK_BYTES, resources.readBuffer);
    try {
      if (source.size < 12 + TRAILER_BYTES) throw new InvalidDataError('pack', 'pack too short');
      const head = source.read(0, 12);
      const version = head.readUInt32BE(4);
      if (head.toString('latin1', 0, 4) !== 'PACK' || (version !== 2 && version !== 3)) throw new InvalidDataError('pack', 'not a pack');
      if (head.readUInt32BE(8) !== index.objectCount) throw new InvalidDataError('pack', 'pack and index disagree on the object count');
      if (!source.read(source.size - TRAILER_BYTES, TRAILER_BYTES).equals(index.packChecksum()))
        throw new InvalidDataError('pack', 'pack does not match its index');
      return new PackFile(file, source, resources.inflater);
    } catch (error) {
      source.close();
      throw error;
    }
  }

  /**
   * Reads the header of the entry at `offset` and, usually, its data with it.
   * @param firstRead - bytes read at once: the default holds most small objects whole; a
   *   header alone fits in {@link HEADER_READ_BYTES}
   */
  entry(offset: number, firstRead = FIRST_READ_BYTES): PackEntry {
    const end = this.source.size - TRAILER_BYTES;
    if (offset < 12 || offset >= end) throw new InvalidDataError('pack', 'pack offset out of range');
    // Into the shared buffer: an entry's bytes are used (inflated) before the next entry is read.
    const bytes = this.source.readShared(offset, Math.min(firstRead, end - offset));
    let at = 0;
    let byte = byteAt(bytes, at++);
    const type = (byte >> 4) & 7;
    let size = byte & 15;
    let shift = 4;
    while ((byte & 0x80) !== 0) {
      if (shift > 49) throw new InvalidDataError('pack', 'pack entry size too large');
      byte = byteAt(bytes, at++);
      size += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    }
    if (type === PACK_OFS_DELTA) {
      // Big-endian base-128 with an offset added per continuation byte (no redundant encodings).
      byte = byteAt(bytes, at++);
      let distance = byte & 0x7f;
      while ((byte & 0x80) !== 0) {
        byte = byteAt(bytes, at++);
        distance = (distance + 1) * 128 + (byte & 0x7f);
        if (distance > offset) throw new InvalidDataError('pack', 'delta base before the pack start');
      }
      if (distance === 0 || distance > offset - 12) throw new InvalidDataError('pack', 'delta base out of range');
      return { type, size, baseOffset: offset - distance, bytes, dataAt: at };
    }
    if (type === PACK_REF_DELTA) {
      if (at + 20 > bytes.length) throw new InvalidDataError('pack', 'pack entry is cut');
      return { type, size, baseOid: Buffer.from(bytes.subarray(at, at + 20)), bytes, dataAt: at + 20 };
    }
    if (type < PACK_COMMIT || type > PACK_TAG) throw new InvalidDataError('pack', `unknown pack entry type ${type}`);
    return { type, size, bytes, dataAt: at };
  }

  /**
   * The sizes a delta declares, inflating only the start of its data when that suffices.
   * @throws InvalidDataError when the data is damaged
   */
  deltaHeader(offset: number, entry: PackEntry): DeltaHeader {
    const available = this.source.size - TRAILER_BYTES - offset - entry.dataAt;
    // A dynamic Huffman block's tables come before its first byte, so a short prefix may
    // give nothing yet; read more, then the whole delta.
    for (const length of [64, 1024]) {
      if (length >= available) break;
      let start: Buffer;
      try {
        // A partial stream: flush what it gives instead of failing at its end (1 KiB of
        // deflate data expands to at most ~1 MiB).
        start = inflateSync(this.source.read(offset + entry.dataAt, length), { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: 2 * 1024 * 1024 });
      } catch {
        throw new InvalidDataError('pack', 'pack entry does not inflate');
      }
      try {
        return readDeltaHeader(start);
      } catch {
        // Not enough of the delta yet.
      }
    }
    return readDeltaHeader(this.inflate(offset, entry));
  }

  /**
   * Inflates an entry's data (the object, or the delta).
   * @param offset - the entry's offset, as given to {@link entry}
   * @throws InvalidDataError when the data is damaged or does not inflate to the declared size
   */
  inflate(offset: number, entry: PackEntry): Buffer {
    const end = this.source.size - TRAILER_BYTES;
    // zlib never grows data by more than this (deflateBound), so the whole stream is inside.
    const bound = entry.size + (entry.size >>> 12) + (entry.size >>> 14) + 64;
    const available = Math.min(bound, end - offset - entry.dataAt);
    const compressed =
      entry.dataAt + available <= entry.bytes.length
        ? entry.bytes.subarray(entry.dataAt, entry.dataAt + available)
        : this.source.read(offset + entry.dataAt, available);
    let data: Buffer | null;
    try {
      data = this.inflater.inflate(compressed, entry.size);
    } catch {
      throw new InvalidDataError('pack', 'pack entry does not inflate');
    }
    if (data === null) throw new InvalidDataError('pack', 'pack entry size does not match');
    return data;
  }

  close(): void {
    this.source.close();
  }
}

function byteAt(bytes: Buffer, at: number): number {
  const byte = bytes[at];
  if (byte === undefined) throw new InvalidDataError('pack', 'pack entry is cut');
  return byte;
}
