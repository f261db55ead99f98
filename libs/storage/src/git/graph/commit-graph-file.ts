/**
 * A repository's commit-graph read in process (git's format: `gitformat-commit-graph(5)`): the
 * ids of its commits in order, each with its parents, topological level and commit time, from
 * one file or a chain of split files. History questions over the whole graph (which branches
 * contain a commit, ancestry, counts, commit times) are then answered here instead of by a git
 * process: on a first read of a repository, a `for-each-ref --contains` process cost ~20 ms of
 * git's own and a spawn on top.
 *
 * Only what those questions need is read (fanout, ids, commit data, extra edges), not the
 * changed-path filters. Anything unexpected (another version or hash, a chunk out of bounds, a
 * chain whose layers do not match) makes the reader answer null, and the caller asks git, which
 * reads the same files with its own checks.
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';
import type { Oid } from '../objects/oid.js';
import { statPart, statQuiet } from '../objects/stat-stamp.js';

const SIGNATURE = 0x43475048; // "CGPH"
const HEADER_BYTES = 8;
const CHUNK_ENTRY_BYTES = 12;
const HASH_BYTES = 20; // hash version 1 (SHA-1): Radicle's storage
const FANOUT_BYTES = 256 * 4;
/** Per commit in CDAT: tree id, two parent positions, level and time. */
const COMMIT_DATA_BYTES = HASH_BYTES + 16;
/** Parent position meaning "no parent". */
const NO_PARENT = 0x70000000;
/** Set on the second parent: the rest is a position in the extra-edge list (octopus merges). */
const EXTRA_EDGES = 0x80000000;
/** Layers of a split chain read at most (git's own default keeps a handful). */
const MAX_CHAIN_LAYERS = 64;
/** Bytes a graph holds per commit once read (id, parents, level, positions). */
export const GRAPH_BYTES_PER_COMMIT = 36;

/** Commit time of the first commit of {@link CommitGraph.synthetic} (2020-09-13). */
const SYNTHETIC_EPOCH = 1_600_000_000;

const CHUNK = { fanout: 0x4f494446, ids: 0x4f49444c, data: 0x43444154, edges: 0x45444745, bloomIndexes: 0x42494458, bloomData: 0x42444154 } as const;

/** One file of a graph as read (a chain has several, the base first). */
interface Layer {
  /** Position of this layer's first commit in the whole graph. */
  readonly offset: number;
  readonly count: number;
  readonly fanout: Buffer;
  readonly ids: Buffer;
  readonly data: Buffer;
  readonly edges: Buffer | null;
}

/** The ids of one layer, for lookups. */
interface IdLayer {
  readonly offset: number;
  readonly fanout: Buffer;
  readonly ids: Buffer;
}

/**
 * The commits of one repository's commit-graph: ids for lookups, and parents and levels by
 * graph position in typed arrays: ~36 bytes per commit with the commit times, where keeping
 * the commit data as read would hold 56, and a walk reads arrays instead of decoding big-endian records.
 */
export class CommitGraph {
  private constructor(
    private readonly idLayers: readonly IdLayer[],
    /** Parents of position p: `parentList[parentStart[p] .. parentStart[p + 1])`. */
    private readonly parentStart: Uint32Array,
    private readonly parentList: Uint32Array,
    /** Per position: the topological level (upper 30 bits) and the commit time's bits 33–34. */
    private readonly levels: Uint32Array,
    /** Per position: the commit time's lower 32 bits. */
    private readonly timesLow: Uint32Array,
  ) {}

  /** Commits in the graph (all layers). */
  get size(): number {
    return this.levels.length;
  }

  /** Bytes held (for memory accounting). */
  get bytes(): number {
    const ids = this.idLayers.reduce((sum, layer) => sum + layer.fanout.length + layer.ids.length, 0);
    return ids + this.parentStart.byteLength + this.parentList.byteLength + this.levels.byteLength + this.timesLow.byteLength;
  }

  /** The graph position of `oid`, or -1 when the graph does not hold it. */
  position(oid: Oid): number {
    const key = Buffer.from(oid, 'hex');
    if (key.length !== HASH_BYTES) return -1;
    const first = key[0] as number;
    for (const layer of this.idLayers) {
      let low = first === 0 ? 0 : layer.fanout.readUInt32BE((first - 1) * 4);
      let high = layer.fanout.readUInt32BE(first * 4);
      while (low < high) {
        const middle = (low + high) >>> 1;
        const order = layer.ids.compare(key, 0, HASH_BYTES, middle * HASH_BYTES, (middle + 1) * HASH_BYTES);
        if (order === 0) return layer.offset + middle;
        if (order < 0) low = middle + 1;
        else high = middle;
      }
    }
    return -1;
  }

  /**
   * Writes the raw id of the commit at `position` into `target` at `offset`.
   * @throws RangeError when the graph has no such position
   */
  copyId(position: number, target: Buffer, offset: number): void {
    for (const layer of this.idLayers) {
      const at = position - layer.offset;
      if (at >= 0 && at * HASH_BYTES < layer.ids.length) {
        layer.ids.copy(target, offset, at * HASH_BYTES, (at + 1) * HASH_BYTES);
        return;
      }
    }
    throw new RangeError(`no commit at graph position ${position}`);
  }

  /**
   * The id of the commit at `position`, as hex.
   * @throws RangeError when the graph has no such position
   */
  id(position: number): Oid {
    const raw = Buffer.alloc(HASH_BYTES);
    this.copyId(position, raw, 0);
    return raw.toString('hex') as Oid;
  }

  /** The topological level of the commit at `position` (0: not computed by the writer). */
  level(position: number): number {
    return (this.levels[position] ?? 0) >>> 2;
  }

  /** The committer time of the commit at `position`, in seconds (as `rev-list --timestamp` gives it). */
  time(position: number): number {
    return ((this.levels[position] ?? 0) & 3) * 2 ** 32 + (this.timesLow[position] ?? 0);
  }

  /** Where the parents of `position` start in {@link parentPositions} (and end: the next one's start). */
  parentsStart(position: number): number {
    return this.parentStart[position] ?? 0;
  }

  /** Every commit's parents, by graph position, each commit's after the previous one's. */
  get parentPositions(): Uint32Array {
    return this.parentList;
  }

  /**
   * Reads the commit-graph git would use for `gitDir`: its own (one file, else a split chain),
   * else the one in `overlayObjectDir` (ours, see commit-graph-overlays.ts).
   * @param options - `maxCommits`: a bigger graph is not read (answers null)
   * @returns the graph; null when there is none or it cannot be read exactly
   */
  static read(gitDir: string, overlayObjectDir?: string, options: { readonly maxCommits?: number } = {}): CommitGraph | null {
    for (const objectDir of objectDirsOf(gitDir, overlayObjectDir)) {
      const layers = readLayersIn(objectDir, options.maxCommits ?? Number.MAX_SAFE_INTEGER);
      if (layers !== undefined) return layers === null ? null : CommitGraph.decode(layers);
    }
    return null;
  }

  /**
   * A graph of `count` commits built in memory in git's layout and decoded by the code that
   * decodes files: one line of history (position i's first parent is i − 1) with a merge every
   * eighth commit (second parent i − 8), levels i + 1 and times one second apart. For warming
   * up the code (graph-warm-up.ts), never for a repository.
   */
  static synthetic(count: number): CommitGraph | null {
    const size = Math.max(1, Math.min(count, 1 << 24));
    const fanout = Buffer.alloc(FANOUT_BYTES);
    // Ids as syntheticCommitId spells them (the position in the first four bytes), so id order
    // is position order; every id's first byte is 0 (size ≤ 2^24), so every fanout entry
    // counts them all.
    for (let byte = 0; byte < 256; byte++) fanout.writeUInt32BE(size, byte * 4);
    const ids = Buffer.alloc(size * HASH_BYTES);
    const data = Buffer.alloc(size * COMMIT_DATA_BYTES);
    for (let position = 0; position < size; position++) {
      ids.writeUInt32BE(position, position * HASH_BYTES);
      const base = position * COMMIT_DATA_BYTES + HASH_BYTES;
      data.writeUInt32BE(position === 0 ? NO_PARENT : position - 1, base);
      data.writeUInt32BE(position >= 8 && position % 8 === 0 ? position - 8 : NO_PARENT, base + 4);
      data.writeUInt32BE(((position + 1) << 2) >>> 0, base + 8);
      data.writeUInt32BE(SYNTHETIC_EPOCH + position, base + 12);
    }
    return CommitGraph.decode([{ offset: 0, count: size, fanout, ids, data, edges: null }]);
  }

  /** A stamp of the graph files `read` would take now (cheap: `stat` calls), to tell a changed graph. */
  static stampOf(gitDir: string, overlayObjectDir?: string): string {
    return objectDirsOf(gitDir, overlayObjectDir)
      .flatMap((objectDir) => Object.values(graphFilesIn(objectDir)).map((file) => statPart(statQuiet(file))))
      .join('|');
  }

  /** Decodes the layers' commit data into parent, level and time arrays; null when a position is out of range. */
  private static decode(layers: readonly Layer[]): CommitGraph | null {
    const last = layers[layers.length - 1];
    const size = last === undefined ? 0 : last.offset + last.count;
    const levels = new Uint32Array(size);
    const timesLow = new Uint32Array(size);
    const parentStart = new Uint32Array(size + 1);
    let parents: Uint32Array = new Uint32Array(size + 16);
    let used = 0;
    const add = (parent: number): boolean => {
      if (parent >= size) return false;
      if (used === parents.length) {
        const grown = new Uint32Array(parents.length * 2);
        grown.set(parents);
        parents = grown;
      }
      parents[used++] = parent;
      return true;
    };
    for (const layer of layers) {
      const { data, edges } = layer;
      for (let at = 0; at < layer.count; at++) {
        const position = layer.offset + at;
        const base = at * COMMIT_DATA_BYTES + HASH_BYTES;
        parentStart[position] = used;
        levels[position] = data.readUInt32BE(base + 8);
        timesLow[position] = data.readUInt32BE(base + 12);
        const first = data.readUInt32BE(base);
        if (first === NO_PARENT) continue;
        if (!add(first)) return null;
        const second = data.readUInt32BE(base + 4);
        if (second === NO_PARENT) continue;
        if ((second & EXTRA_EDGES) === 0) {
          if (!add(second)) return null;
          continue;
        }
        if (edges === null) return null;
        for (let edge = second & 0x7fffffff; ; edge++) {
          if ((edge + 1) * 4 > edges.length) return null;
          const value = edges.readUInt32BE(edge * 4);
          if (!add(value & 0x7fffffff)) return null;
          if ((value & EXTRA_EDGES) !== 0) break;
        }
      }
    }
    parentStart[size] = used;
    const idLayers = layers.map(({ offset, fanout, ids }) => ({ offset, fanout, ids }));
    return new CommitGraph(idLayers, parentStart, parents.slice(0, used), levels, timesLow);
  }
}

/** The object directories git looks in for a graph, in its order: the repository's, then ours. */
function objectDirsOf(gitDir: string, overlayObjectDir: string | undefined): string[] {
  return [path.join(gitDir, 'objects'), ...(overlayObjectDir === undefined ? [] : [overlayObjectDir])];
}

/** Where an object directory keeps a single graph file and a split chain's list. */
function graphFilesIn(objectDir: string): { single: string; chain: string } {
  return { single: path.join(objectDir, 'info', 'commit-graph'), chain: path.join(objectDir, 'info', 'commit-graphs', 'commit-graph-chain') };
}

/** The graph layers in one object directory: undefined when it has none, null when it has one that cannot be read. */
function readLayersIn(objectDir: string, maxCommits: number): Layer[] | null | undefined {
  const files = graphLayerFilesIn(objectDir);
  if (files === undefined || files === null) return files;
  const layers: Layer[] = [];
  let offset = 0;
  for (const [index, file] of files.entries()) {
    const layer = readLayer(file, offset, index, maxCommits);
    if (layer === null) return null;
    layers.push(layer);
    offset += layer.count;
  }
  return layers;
}

/**
 * The files of the graph in one object directory, base layer first: the single file (git
 * prefers it when both exist), else the layers a split chain lists. Undefined when there is no
 * graph; null when the chain's list cannot be read or names anything but layer hashes (its
 * names become paths, so nothing else is accepted).
 */
function graphLayerFilesIn(objectDir: string): string[] | null | undefined {
  const { single, chain } = graphFilesIn(objectDir);
  if (statQuiet(single) !== undefined) return [single];
  if (statQuiet(chain) === undefined) return undefined;
  let hashes: string[];
  try {
    hashes = readFileSync(chain, 'latin1')
      .split('\n')
      .filter((line) => line !== '');
  } catch {
    return null;
  }
  if (hashes.length === 0 || hashes.length > MAX_CHAIN_LAYERS || !hashes.every((hash) => /^[0-9a-f]{40}$/.test(hash))) return null;
  return hashes.map((hash) => path.join(objectDir, 'info', 'commit-graphs', `graph-${hash}.graph`));
}

/**
 * One graph file: its header, chunk table and the chunks the questions need.
 * @param offset - graph position of its first commit (the commits of the layers below it)
 * @param bases - how many layers lie below it (its header must say the same)
 * @param maxCommits - commits of the whole graph read at most
 */
function readLayer(file: string, offset: number, bases: number, maxCommits: number): Layer | null {
  return readGraphFile(file, null, (fd, size) => {
    const chunks = readChunkTable(fd, size, bases);
    if (chunks === null) return null;
    const chunk = (id: number): Buffer | null => {
      const range = chunks.get(id);
      return range === undefined ? null : readAt(fd, range.start, range.end - range.start, size);
    };
    const fanout = chunk(CHUNK.fanout);
    if (fanout === null || fanout.length !== FANOUT_BYTES) return null;
    const count = fanout.readUInt32BE(FANOUT_BYTES - 4);
    // Past the bound nothing more is read: the graph would not be kept.
    if (offset + count > maxCommits) return null;
    for (let i = 1; i < 256; i++) if (fanout.readUInt32BE(i * 4) < fanout.readUInt32BE((i - 1) * 4)) return null;
    const ids = chunk(CHUNK.ids);
    const data = chunk(CHUNK.data);
    if (ids === null || data === null || ids.length !== count * HASH_BYTES || data.length !== count * COMMIT_DATA_BYTES) return null;
    const edges = chunks.has(CHUNK.edges) ? chunk(CHUNK.edges) : null;
    if (chunks.has(CHUNK.edges) && edges === null) return null;
    return { offset, count, fanout, ids, data, edges };
  });
}

/** `read` given an open graph file and its size (closed afterwards); `failed` when it cannot be opened or read. */
function readGraphFile<T>(file: string, failed: T, read: (fd: number, size: number) => T): T {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return failed;
  }
  try {
    return read(fd, fstatSync(fd).size);
  } catch {
    return failed;
  } finally {
    closeSync(fd);
  }
}

/**
 * A graph file's header checked and its chunk table read: each chunk's id with its byte range.
 * @param bases - how many layers lie below the file (its header must say the same)
 * @returns null when the header or the table is not what git writes
 */
function readChunkTable(fd: number, size: number, bases: number): Map<number, { start: number; end: number }> | null {
  const header = readAt(fd, 0, HEADER_BYTES, size);
  if (header === null || header.readUInt32BE(0) !== SIGNATURE || header[4] !== 1 || header[5] !== 1) return null;
  const chunkCount = header[6] ?? 0;
  if ((header[7] ?? 0) !== bases) return null;
  const table = readAt(fd, HEADER_BYTES, (chunkCount + 1) * CHUNK_ENTRY_BYTES, size);
  if (table === null) return null;
  const chunks = new Map<number, { start: number; end: number }>();
  for (let i = 0; i < chunkCount; i++) {
    const start = Number(table.readBigUInt64BE(i * CHUNK_ENTRY_BYTES + 4));
    const end = Number(table.readBigUInt64BE((i + 1) * CHUNK_ENTRY_BYTES + 4));
    if (end < start || end > size) return null;
    chunks.set(table.readUInt32BE(i * CHUNK_ENTRY_BYTES), { start, end });
  }
  return chunks;
}

/**
 * Whether the commit-graph in an object directory carries changed-path Bloom filters in every
 * layer, which git uses to skip the commits that cannot have changed a path (`rev-list -- path`
 * without reading their trees). Reads headers and chunk tables only.
 * @returns undefined when the directory holds no graph; false when one cannot be read
 */
export function graphHasChangedPaths(objectDir: string): boolean | undefined {
  const files = graphLayerFilesIn(objectDir);
  if (files === undefined) return undefined;
  if (files === null) return false;
  return files.every((file, bases) =>
    readGraphFile(file, false, (fd, size) => {
      const chunks = readChunkTable(fd, size, bases);
      return chunks !== null && chunks.has(CHUNK.bloomIndexes) && chunks.has(CHUNK.bloomData);
    }),
  );
}

/** `length` bytes at `position` of an open file, or null when they are not all there. */
function readAt(fd: number, position: number, length: number, size: number): Buffer | null {
  if (position + length > size) return null;
  const buffer = Buffer.allocUnsafeSlow(length);
  let done = 0;
  while (done < length) {
    const read = readSync(fd, buffer, done, length - done, position + done);
    if (read === 0) return null;
    done += read;
  }
  return buffer;
}

/**
 * The id {@link CommitGraph.synthetic} gives the commit at `position`: the position in the
 * first four bytes (big-endian), zeros after.
 */
export function syntheticCommitId(position: number): Oid {
  return `${position.toString(16).padStart(8, '0')}${'0'.repeat(32)}` as Oid;
}
