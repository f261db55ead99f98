/**
 * Reads objects straight from a repository's pack and loose files, in this process: a first
 * read of a repository then starts no `cat-file` (whose start-up is most of a cold page), and
 * a commit or tree read costs a few positional reads and one inflate.
 *
 * It answers only what it can answer exactly and cheaply; `undefined` means "ask git": an
 * object it does not find (git decides whether it is missing, in an alternate, or in a pack
 * written since), one larger than `maxObjectBytes` (inflated on git's side, off this thread),
 * a delta chain costing more than a few megabytes to rebuild, or files that do not follow the
 * format. Objects are not re-hashed: like git, a pack entry is trusted once it inflates to
 * its declared size.
 */
import { InvalidDataError } from '@forge-httpd/identity';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { readLooseObject, readLooseObjectFile } from './loose-files.js';
import type { GitObjectType } from './object-type.js';
import type { Oid } from './oid.js';
import { LiveProcessLimit, type StoppableProcess } from '../limits/live-process-limit.js';
import type { ObjectReads, StoredObject } from './object-reads.js';
import { applyDelta, readDeltaHeader } from './pack-delta.js';
import { HEADER_READ_BYTES, PACK_BLOB, PACK_COMMIT, PACK_TAG, PACK_TREE, PackFile, type PackEntry } from './pack-file.js';
import { PackIndex } from './pack-index.js';

export type { StoredObject } from './object-reads.js';

/** Tuning for {@link ObjectFiles}. */
export interface ObjectFilesOptions {
  /** Objects bigger than this are left to git (default 1 MiB). */
  readonly maxObjectBytes?: number;
  /** What the object files of every repository share: open packs, delta bases, buffers. */
  readonly reads: ObjectReads;
  /** Repositories whose packs stay open at once (default: the reads' `openPacks`). */
  readonly limit?: LiveProcessLimit;
  /** Close the packs after this long without reads (default 30 s). */
  readonly idleMs?: number;
  /** Deltas rebuilt for one blob at most; longer chains are left to git (default 10). */
  readonly maxRebuiltDeltas?: number;
  /** Deltas rebuilt for one tree, commit or tag at most (default 50, git's own `pack.depth`). */
  readonly maxRebuiltSmallDeltas?: number;
  /** A blob up to this size is rebuilt down as many deltas as a tree (default 64 KiB; 0: never). */
  readonly maxDeepBlobBytes?: number;
}

const TYPES: Record<number, GitObjectType> = { [PACK_COMMIT]: 'commit', [PACK_TREE]: 'tree', [PACK_BLOB]: 'blob', [PACK_TAG]: 'tag' };
const DEFAULT_MAX_OBJECT_BYTES = 1024 * 1024;
/** Bytes inflated and rebuilt for one object at most: a longer chain is git's to rebuild. */
const MAX_WORK_BYTES = 8 * 1024 * 1024;
/** git's own default `pack.depth` is 50; aggressive packing goes to 250. */
const MAX_CHAIN = 1000;
/**
 * Deltas rebuilt for one object at most (bases in the cache end a chain early). Every level
 * is an inflate and a copy here, several times git's cost, so a deep blob is git's to rebuild.
 */
const MAX_REBUILT_DELTAS = 10;
/**
 * The same for trees (and commits and tags): a few KB each, so a level costs a small inflate
 * and copy, where handing the object to git costs a `cat-file` process's start when none runs
 * yet (git's packing leaves folders of a big repository deep in delta chains).
 */
const MAX_REBUILT_SMALL_DELTAS = 50;
/**
 * A blob up to this size is rebuilt down as many deltas as a tree: a source file's chain costs
 * a few small inflates, where handing it to git starts a `cat-file`. Reads come here only while
 * no cat-file runs for the repository, and a diff's blobs go to git in bulk.
 */
const MAX_DEEP_BLOB_BYTES = 64 * 1024;
/** Bytes inflated and rebuilt at most for such a blob (its bases may be larger than it). */
const MAX_DEEP_BLOB_WORK_BYTES = 1024 * 1024;
/**
 * More packs than this in one repository: every read would probe them all, and each holds a
 * descriptor (two with a big index); git answers.
 */
const MAX_PACKS = 32;
const PACK_INDEX_NAME = /^pack-[0-9a-f]{40}\.idx$/;

interface OpenPack {
  readonly index: PackIndex;
  readonly pack: PackFile;
  /** Key prefix in the delta base cache: the pack's path, unique within a runtime. */
  readonly key: string;
}

/**
 * Thrown where the reader leaves an object to git (a chain too deep, a read over its work
 * bound): one shared, frozen value, since it never leaves this module and needs no stack.
 */
const GIVE_UP: Error = Object.freeze(new Error('left to git'));

/** The object files of one repository. Keep one per repository; `close()` when done. */
export class ObjectFiles implements StoppableProcess {
  private packs: OpenPack[] | undefined;
  /** The pack directory's modification time at the last scan: a miss rescans when it moved. */
  private scannedAt = -1;
  private work = 0;
  /** Bounds of the read under way: bytes inflated and rebuilt, and the size of the object asked for. */
  private maxWork = MAX_WORK_BYTES;
  private maxTargetBytes = Number.MAX_SAFE_INTEGER;
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;

  private readonly maxObjectBytes: number;
  private readonly maxRebuiltDeltas: number;
  private readonly maxRebuiltSmallDeltas: number;
  private readonly maxDeepBlobBytes: number;
  private readonly limit: LiveProcessLimit;
  private readonly idleMs: number;
  private readonly packDir: string;
  private readonly reads: ObjectReads;

  constructor(
    private readonly gitDir: string,
    options: ObjectFilesOptions,
  ) {
    this.reads = options.reads;
    this.maxObjectBytes = options.maxObjectBytes ?? DEFAULT_MAX_OBJECT_BYTES;
    this.maxRebuiltDeltas = Math.min(options.maxRebuiltDeltas ?? MAX_REBUILT_DELTAS, MAX_CHAIN);
    this.maxRebuiltSmallDeltas = Math.min(options.maxRebuiltSmallDeltas ?? MAX_REBUILT_SMALL_DELTAS, MAX_CHAIN);
    this.maxDeepBlobBytes = options.maxDeepBlobBytes ?? MAX_DEEP_BLOB_BYTES;
    this.limit = options.limit ?? options.reads.openPacks;
    this.idleMs = options.idleMs ?? 30_000;
    this.packDir = path.join(gitDir, 'objects', 'pack');
  }

  /**
   * Reads an object, or says that git must.
   * @param oid - a validated object id
   * @returns the object; undefined when git must answer (see the module comment)
   * @throws InvalidDataError for a loose object whose size does not match its header
   */
  read(oid: Oid): StoredObject | undefined {
    if (this.closed) return undefined;
    try {
      this.work = 0;
      const raw = Buffer.from(oid, 'hex');
      const found = this.readPacked(raw) ?? this.readLoose(oid);
      if (found !== undefined || !this.packsMoved()) return this.fits(found);
      this.dropPacks();
      return this.fits(this.readPacked(raw));
    } catch (error) {
      if (error instanceof InvalidDataError && error.what === 'object') throw error;
      // Damaged or vanished files: git answers, and reports what is wrong; the packs are
      // scanned again on the next read.
      if (error !== GIVE_UP) this.dropPacks();
      return undefined;
    }
  }

  /**
   * An object's type and size without rebuilding it: for a packed object, the entry headers
   * down its delta chain and the start of its top delta.
   * @returns the type and size; undefined when git must answer
   */
  readInfo(oid: Oid): { type: GitObjectType; size: number } | undefined {
    if (this.closed) return undefined;
    try {
      const raw = Buffer.from(oid, 'hex');
      const located = this.locate(raw);
      if (located === undefined) {
        const object = this.read(oid);
        return object === undefined ? undefined : { type: object.type, size: object.data.length };
      }
      let at = located;
      let entry = at.pack.pack.entry(at.offset, HEADER_READ_BYTES);
      const size = TYPES[entry.type] !== undefined ? entry.size : at.pack.pack.deltaHeader(at.offset, entry).targetSize;
      for (let depth = 0; TYPES[entry.type] === undefined; depth += 1) {
        const base = depth > MAX_CHAIN ? undefined : this.baseOf(at.pack, entry);
        if (base === undefined) {
          // A loose base, or a chain too long to walk: the whole read decides.
          const object = this.read(oid);
          return object === undefined ? undefined : { type: object.type, size };
        }
        at = base;
        entry = at.pack.pack.entry(at.offset, HEADER_READ_BYTES);
      }
      return { type: TYPES[entry.type] as GitObjectType, size };
    } catch (error) {
      if (error instanceof InvalidDataError && error.what === 'object') throw error;
      this.dropPacks();
      return undefined;
    }
  }

  /** Closes the pack files; the next read opens them again. */
  stopIdle(): void {
    this.dropPacks();
  }

  isBusy(): boolean {
    return false;
  }

  close(): void {
    this.closed = true;
    this.dropPacks();
  }

  private fits(object: StoredObject | null | undefined): StoredObject | undefined {
    return object !== null && object !== undefined && object.data.length <= this.maxObjectBytes ? object : undefined;
  }

  private readLoose(oid: Oid): StoredObject | undefined {
    const read = readLooseObjectFile(this.gitDir, oid);
    if ('corrupt' in read) throw new InvalidDataError('object', read.corrupt);
    return 'type' in read ? read : undefined;
  }

  /** Where a delta's base is: at an offset of the same pack, or by id in any pack (undefined: not packed). */
  private baseOf(pack: OpenPack, entry: PackEntry): { pack: OpenPack; offset: number } | undefined {
    return entry.baseOffset !== undefined ? { pack, offset: entry.baseOffset } : this.locate(entry.baseOid as Buffer);
  }

  private locate(oid: Buffer): { pack: OpenPack; offset: number } | undefined {
    for (const pack of this.openPacks()) {
      const offset = pack.index.offsetOf(oid);
      if (offset !== undefined) return { pack, offset };
    }
    return undefined;
  }

  private readPacked(oid: Buffer): StoredObject | undefined {
    const located = this.locate(oid);
    if (located === undefined) return undefined;
    this.maxWork = MAX_WORK_BYTES;
    this.maxTargetBytes = this.maxObjectBytes;
    const maxDeltas = this.checkChain(located.pack, located.offset);
    return this.resolve(located.pack, located.offset, 0, true, maxDeltas);
  }

  /**
   * Gives up before inflating anything when more deltas lie between the object and a whole
   * object or a cached base than its type allows (entry headers only: a few bytes each).
   * @returns the deltas the rebuild may go through
   */
  private checkChain(start: OpenPack, startOffset: number): number {
    const most = Math.max(this.maxRebuiltDeltas, this.maxRebuiltSmallDeltas);
    let at: { pack: OpenPack; offset: number } | undefined = { pack: start, offset: startOffset };
    // Ends at a whole object, a cached base, or a base outside the packs (resolve decides).
    for (let depth = 0; at !== undefined; depth += 1) {
      const type = depth > 0 ? this.reads.deltaBases.get(`${at.pack.key}\0${at.offset}`)?.type : undefined;
      const entry = type === undefined ? at.pack.pack.entry(at.offset, HEADER_READ_BYTES) : undefined;
      const base = type ?? TYPES[entry?.type ?? 0];
      if (base !== undefined) {
        if (base !== 'blob' || depth <= this.maxRebuiltDeltas) {
          const allowed = base === 'blob' ? this.maxRebuiltDeltas : this.maxRebuiltSmallDeltas;
          if (depth > allowed) throw GIVE_UP;
          return allowed;
        }
        // A deep blob: rebuilt here only while small (checked at its top delta's header).
        if (depth > this.maxRebuiltSmallDeltas || this.maxDeepBlobBytes === 0) throw GIVE_UP;
        this.maxWork = Math.min(this.maxWork, MAX_DEEP_BLOB_WORK_BYTES);
        this.maxTargetBytes = Math.min(this.maxTargetBytes, this.maxDeepBlobBytes);
        return this.maxRebuiltSmallDeltas;
      }
      if (depth >= most) throw GIVE_UP;
      at = this.baseOf(at.pack, entry as PackEntry);
    }
    return this.maxRebuiltDeltas;
  }

  /** Rebuilds the object at `offset`; `target` is false while rebuilding a base for a delta. */
  private resolve(pack: OpenPack, offset: number, depth: number, target: boolean, maxDeltas: number): StoredObject {
    if (depth > maxDeltas) throw GIVE_UP;
    const key = `${pack.key}\0${offset}`;
    const cached = this.reads.deltaBases.get(key);
    if (cached !== undefined) return cached;
    const entry = pack.pack.entry(offset);
    const type = TYPES[entry.type];
    if (type !== undefined && target && entry.size > this.maxTargetBytes) throw GIVE_UP;
    const data = this.inflate(pack, offset, entry);
    let object: StoredObject;
    if (type !== undefined) {
      object = { type, data };
    } else {
      const declared = readDeltaHeader(data).targetSize;
      if (declared > (target ? this.maxTargetBytes : this.maxWork)) throw GIVE_UP;
      const base = this.rebuildBase(pack, entry, depth, maxDeltas);
      this.spend(declared);
      object = { type: base.type, data: applyDelta(base.data, data) };
    }
    if (!target) this.reads.deltaBases.set(key, object);
    return object;
  }

  private rebuildBase(pack: OpenPack, entry: PackEntry, depth: number, maxDeltas: number): StoredObject {
    const located = this.baseOf(pack, entry);
    if (located !== undefined) return this.resolve(located.pack, located.offset, depth + 1, false, maxDeltas);
    // Thin packs are completed on arrival, so a base outside every pack is loose or git's.
    const loose = readLooseObject(this.gitDir, (entry.baseOid as Buffer).toString('hex') as Oid);
    if (loose === null) throw GIVE_UP;
    return loose;
  }

  private inflate(pack: OpenPack, offset: number, entry: PackEntry): Buffer {
    this.spend(entry.size);
    return pack.pack.inflate(offset, entry);
  }

  private spend(bytes: number): void {
    this.work += bytes;
    if (this.work > this.maxWork) throw GIVE_UP;
  }

  private openPacks(): readonly OpenPack[] {
    if (this.idleTimer === undefined) {
      this.idleTimer = setTimeout(() => this.dropPacks(), this.idleMs);
      this.idleTimer.unref();
    } else {
      this.idleTimer.refresh();
    }
    if (this.packs !== undefined) return this.packs;
    this.scannedAt = this.packDirTime();
    const packs: OpenPack[] = [];
    this.packs = packs;
    let names: string[];
    try {
      names = readdirSync(this.packDir).filter((name) => PACK_INDEX_NAME.test(name));
    } catch {
      return packs;
    }
    if (names.length > MAX_PACKS) return packs;
    this.limit.touch(this);
    for (const name of names.sort()) {
      const base = path.join(this.packDir, name.slice(0, -'.idx'.length));
      let index: PackIndex | undefined;
      try {
        index = PackIndex.open(`${base}.idx`, this.reads);
        packs.push({ index, pack: PackFile.open(`${base}.pack`, index, this.reads), key: base });
      } catch {
        // A pack being written (its .pack not complete yet) or a damaged one: git reads it.
        index?.close();
      }
    }
    return packs;
  }

  private packsMoved(): boolean {
    return this.packDirTime() !== this.scannedAt;
  }

  private packDirTime(): number {
    try {
      return statSync(this.packDir).mtimeMs;
    } catch {
      return 0;
    }
  }

  private dropPacks(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    this.limit.remove(this);
    for (const pack of this.packs ?? []) {
      pack.index.close();
      pack.pack.close();
    }
    this.packs = undefined;
  }
}

/**
 * Runs `use` with a reader of `gitDir`'s object files, closed afterwards: for one-off reads of a
 * few objects (a repository's identity document at start-up) without keeping packs open.
 * @param reads - the runtime's shared object reads (delta bases, buffers)
 * The reader answers undefined whenever git must (including damaged objects).
 */
export function withObjectFiles<T>(gitDir: string, reads: ObjectReads, use: (read: (oid: Oid) => StoredObject | undefined) => T): T {
  const files = new ObjectFiles(gitDir, { reads, limit: new LiveProcessLimit(1) });
  try {
    return use((oid) => {
      try {
        return files.read(oid);
      } catch {
        return undefined;
      }
    });
  } finally {
    files.close();
  }
}
