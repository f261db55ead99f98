/**
 * The bytes of a {@link CommitChanges} kept in the server's cache directory, so a restart
 * reads a history's changed paths back in milliseconds instead of asking git for them again
 * (seconds of git and of this thread for 50,000 commits). Nothing in it can go stale: every
 * record is keyed by a commit id, and a commit's parents and changes are fixed by its id.
 *
 * Layout (little-endian): an 8-byte magic, six u32 counts (commits, edges, changes, paths,
 * tips, path bytes), the commit ids (20 raw bytes each), committer times (f64), edge starts
 * (u32, commits + 1), edge parents (i32, -1 for a root commit's one edge), change starts (u32,
 * edges + 1), changed path ids (u32), path lengths (u32) and their bytes, the tips whose whole
 * history is held (20 raw bytes each), then the SHA-1 of everything before it. A file that
 * does not check out in every count, bound and checksum is not used.
 */
import { createHash } from 'node:crypto';
import { endianness } from 'node:os';
import type { Oid } from '../objects/oid.js';

const MAGIC = Buffer.from('FGLCI\0\0\x01', 'latin1');
const COUNTS = 6;
const HEADER_BYTES = MAGIC.length + COUNTS * 4;
const OID_BYTES = 20;
const CHECKSUM_BYTES = 20;
/** Entries between two pauses of the step functions. */
const STEP = 4096;
const HASH_CHUNK = 256 * 1024;

/** What is written: the first `commits` entries of each array (the arrays may hold more). */
export interface CommitChangesSnapshot {
  readonly commits: number;
  /** The commits' raw 20-byte ids, one after another. */
  readonly oidBytes: Buffer;
  readonly times: readonly number[];
  /** `commits + 1` entries are written. */
  readonly edgeStart: readonly number[];
  readonly edgeParent: readonly number[];
  readonly changeStart: readonly number[];
  readonly changePaths: readonly number[];
  /** Latin1 strings of the path bytes. */
  readonly paths: readonly string[];
}

/** What a checked file holds, still in its typed form (the reader copies it in slices). */
export interface StoredCommitChanges {
  readonly commits: number;
  /** `commits` ids of 20 raw bytes each. */
  readonly oidBytes: Buffer;
  readonly times: Float64Array;
  readonly edgeStart: Uint32Array;
  readonly edgeParent: Int32Array;
  readonly changeStart: Uint32Array;
  readonly changePaths: Uint32Array;
  readonly paths: readonly string[];
  /** Commits whose whole history is in the file. */
  readonly tips: readonly Oid[];
}

/**
 * Encodes the first `snapshot.commits` commits and `tips`, pausing (yield) every few thousand
 * entries (run it with `runInSlices`: 50,000 commits took 23-72 ms at once). The arrays only
 * grow meanwhile, so the part written does not change.
 * @param snapshot - the arrays of a CommitChanges
 * @param tips - commits whose whole history is among them
 * @returns the file's bytes
 */
export function* encodeCommitChanges(snapshot: CommitChangesSnapshot, tips: readonly Oid[]): Generator<void, Buffer, void> {
  const commits = snapshot.commits;
  const edges = snapshot.edgeStart[commits] as number;
  const changes = snapshot.changeStart[edges] as number;
  const paths = snapshot.paths;
  let pathBytes = 0;
  for (const path of paths) pathBytes += path.length;
  const size =
    HEADER_BYTES + commits * (OID_BYTES + 8 + 4) + 4 + edges * 8 + 4 + changes * 4 + paths.length * 4 + pathBytes + tips.length * OID_BYTES + CHECKSUM_BYTES;
  const out = Buffer.allocUnsafe(size);
  let at = MAGIC.copy(out, 0);
  for (const count of [commits, edges, changes, paths.length, tips.length, pathBytes]) at = out.writeUInt32LE(count, at);
  at += snapshot.oidBytes.copy(out, at, 0, commits * OID_BYTES);
  yield* eachInSteps(commits, (i) => (at = out.writeDoubleLE(snapshot.times[i] as number, at)));
  yield* eachInSteps(commits + 1, (i) => (at = out.writeUInt32LE(snapshot.edgeStart[i] as number, at)));
  yield* eachInSteps(edges, (i) => (at = out.writeInt32LE(snapshot.edgeParent[i] as number, at)));
  yield* eachInSteps(edges + 1, (i) => (at = out.writeUInt32LE(snapshot.changeStart[i] as number, at)));
  yield* eachInSteps(changes, (i) => (at = out.writeUInt32LE(snapshot.changePaths[i] as number, at)));
  yield* eachInSteps(paths.length, (i) => (at = out.writeUInt32LE((paths[i] as string).length, at)));
  yield* eachInSteps(paths.length, (i) => (at += out.write(paths[i] as string, at, 'latin1')));
  for (const tip of tips) at += out.write(tip, at, OID_BYTES, 'hex');
  const digest = yield* sha1InSteps(out.subarray(0, at));
  digest.copy(out, at);
  return out;
}

/** Calls `visit` for 0 … count - 1, pausing every {@link STEP}. */
function* eachInSteps(count: number, visit: (i: number) => unknown): Generator<void, void, void> {
  for (let i = 0; i < count; i += 1) {
    visit(i);
    if (i % STEP === STEP - 1) yield;
  }
}

/** The SHA-1 of `bytes`, a quarter MiB at a time. */
function* sha1InSteps(bytes: Buffer): Generator<void, Buffer, void> {
  const hash = createHash('sha1');
  for (let at = 0; at < bytes.length; at += HASH_CHUNK) {
    hash.update(bytes.subarray(at, at + HASH_CHUNK));
    yield;
  }
  return hash.digest();
}

/** The bytes {@link storedCounts} reads. */
export const COMMIT_CHANGES_HEADER_BYTES = HEADER_BYTES;

/** The counts a file's header declares, in header order. */
interface StoredHeader {
  readonly commits: number;
  readonly edges: number;
  readonly changes: number;
  readonly pathCount: number;
  readonly tipCount: number;
  readonly pathBytes: number;
}

/**
 * A file's header: what its index will weigh in memory (commits and changed paths) and the
 * sizes of its parts, without reading the rest; null when it is not such a file.
 * @param head - at least the file's first {@link COMMIT_CHANGES_HEADER_BYTES} bytes
 */
export function storedCounts(head: Buffer): StoredHeader | null {
  if (head.length < HEADER_BYTES || !head.subarray(0, MAGIC.length).equals(MAGIC)) return null;
  const count = (at: number): number => head.readUInt32LE(MAGIC.length + at * 4);
  return { commits: count(0), edges: count(1), changes: count(2), pathCount: count(3), tipCount: count(4), pathBytes: count(5) };
}

/**
 * Checks and decodes a file written by {@link encodeCommitChanges}, pausing (yield) like it.
 * @param bytes - the whole file
 * @returns its content, or null when anything in it does not check out
 */
export function* decodeCommitChanges(bytes: Buffer): Generator<void, StoredCommitChanges | null, void> {
  // The arrays are read as typed arrays, in the machine's byte order.
  if (endianness() !== 'LE') return null;
  const header = bytes.length < HEADER_BYTES + CHECKSUM_BYTES ? null : storedCounts(bytes);
  if (header === null) return null;
  const { commits, edges, changes, pathCount, tipCount, pathBytes } = header;
  const body = HEADER_BYTES + commits * (OID_BYTES + 8 + 4) + 4 + edges * 8 + 4 + changes * 4 + pathCount * 4 + pathBytes + tipCount * OID_BYTES;
  if (bytes.length !== body + CHECKSUM_BYTES) return null;
  if (!(yield* sha1InSteps(bytes.subarray(0, body))).equals(bytes.subarray(body))) return null;
  let at = HEADER_BYTES;
  const take = (length: number): ArrayBuffer => {
    // A copy of its own: typed arrays need aligned offsets, and the file's buffer is let go.
    const part = new Uint8Array(length);
    part.set(bytes.subarray(at, at + length));
    at += length;
    return part.buffer;
  };
  const oidBytes = Buffer.from(take(commits * OID_BYTES));
  const times = new Float64Array(take(commits * 8));
  const edgeStart = new Uint32Array(take((commits + 1) * 4));
  const edgeParent = new Int32Array(take(edges * 4));
  const changeStart = new Uint32Array(take((edges + 1) * 4));
  const changePaths = new Uint32Array(take(changes * 4));
  const pathLengths = new Uint32Array(take(pathCount * 4));
  const paths: string[] = [];
  let pathAt = at;
  for (const length of pathLengths) {
    if (length === 0) return null;
    paths.push(bytes.toString('latin1', pathAt, pathAt + length));
    pathAt += length;
  }
  if (pathAt !== at + pathBytes) return null;
  at = pathAt;
  const tips: Oid[] = [];
  for (let i = 0; i < tipCount; i += 1) tips.push(bytes.toString('hex', at + i * OID_BYTES, at + (i + 1) * OID_BYTES) as Oid);
  const stored = { commits, oidBytes, times, edgeStart, edgeParent, changeStart, changePaths, paths, tips };
  return (yield* isConsistent(stored, edges, changes)) ? stored : null;
}

/** Every start ascends to its array's end, every parent and path id is in range, every time is finite. */
function* isConsistent(stored: StoredCommitChanges, edges: number, changes: number): Generator<void, boolean, void> {
  const { commits, times, edgeStart, edgeParent, changeStart, changePaths, paths } = stored;
  if (edgeStart[0] !== 0 || edgeStart[commits] !== edges || changeStart[0] !== 0 || changeStart[edges] !== changes) return false;
  let consistent = true;
  // Every commit has at least one edge (a root commit's runs to parent -1).
  yield* eachInSteps(commits, (i) => (consistent &&= (edgeStart[i + 1] as number) > (edgeStart[i] as number) && Number.isFinite(times[i])));
  yield* eachInSteps(edges, (i) => {
    const parent = edgeParent[i] as number;
    consistent &&= parent >= -1 && parent < commits && (changeStart[i + 1] as number) >= (changeStart[i] as number);
  });
  yield* eachInSteps(changes, (i) => (consistent &&= (changePaths[i] as number) < paths.length));
  return consistent;
}
