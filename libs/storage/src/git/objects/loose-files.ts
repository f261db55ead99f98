/**
 * Reading refs and small loose objects straight from a repository's files (git's on-disk
 * formats: `gitrepository-layout(5)`, `gitformat-pack`'s loose object header), so hot paths
 * over thousands of repositories need no git process. Every reader answers undefined (or null
 * for objects) when git must decide instead: symbolic or malformed refs, packed objects,
 * unreadable files, anything that does not hash to its id.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { AFTER_LINE_OID, forEachLine, lineOid } from './buffer-lines.js';
import { hashObject } from './hash-object.js';
import { isGitObjectType, type GitObjectType } from './object-type.js';
import { isOid, type Oid } from './oid.js';
import { compareUtf8 } from '@forge-httpd/identity';
import { isValidAsciiRefName, isValidRefName } from './ref-name.js';
import { firstNameNotBefore } from './sorted-ref-names.js';
import { isDirectory, isSettled, SETTLE_MS, statPart } from './stat-stamp.js';

/** What {@link PackedRefsFile} reads when the repository has no `packed-refs` file. */
const MISSING = Symbol('no packed-refs');

/** Loose objects bigger than this (compressed) are left to git: the readers need small ones. */
const MAX_COMPRESSED_BYTES = 256 * 1024;
const MAX_OBJECT_BYTES = 1024 * 1024;
/**
 * Output chunk of the inflater: identity objects and commits inflate to a few KiB, and chunks
 * this small come from Node's shared buffer pool instead of one 16 KiB allocation per object.
 */
const INFLATE_CHUNK = 2048;

/** What a file read found: the content, or that the file does not exist. */
type FileRead = { content: Buffer } | { missing: true } | null;

function readOptional(file: string): FileRead {
  try {
    return { content: readFileSync(file) };
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? { missing: true } : null;
  }
}

/**
 * The oid a ref points to: the loose ref file first, then `packed-refs` (git's order).
 * @param gitDir - repository
 * @param name - a full ref name from stored data or a constant (never user input)
 * @returns the oid; null when the repository has no such ref; undefined when git must decide
 *   (symbolic or malformed ref, unreadable file)
 */
export function readRefFile(gitDir: string, name: string): Oid | null | undefined {
  const loose = readLooseRef(gitDir, name);
  if (loose !== null) return loose;
  const packed = readOptional(path.join(gitDir, 'packed-refs'));
  if (packed === null) return undefined;
  if (!('content' in packed)) return null;
  const text = packed.content.toString('latin1');
  const terminated = text.endsWith('\n') ? text : `${text}\n`;
  // One native scan instead of splitting: packed-refs of a busy repository holds many refs.
  const at = terminated.indexOf(` ${name}\n`);
  if (at < 0) return null;
  const oid = terminated.slice(at - 40, at);
  const lineStart = at === 40 || terminated[at - 41] === '\n';
  return lineStart && isOid(oid) ? oid : undefined;
}

/**
 * A loose ref file's oid.
 * @returns the oid; null when there is no such file; undefined when git must decide
 */
function readLooseRef(gitDir: string, name: string): Oid | null | undefined {
  const entry = readLooseRefEntry(gitDir, name);
  return typeof entry === 'object' && entry !== null ? undefined : entry;
}

/**
 * A loose ref file read once: its oid, or the target of a symbolic ref.
 * @returns the oid or `{ symbolic: target }`; null when there is no such file; undefined when
 *   git must decide (unreadable, malformed)
 */
function readLooseRefEntry(gitDir: string, name: string): Oid | { symbolic: string } | null | undefined {
  const loose = readOptional(path.join(gitDir, name));
  if (loose === null) return undefined;
  if (!('content' in loose)) return null;
  const text = loose.content.toString('latin1');
  const oid = text.endsWith('\n') ? text.slice(0, -1) : text;
  if (isOid(oid)) return oid;
  const symbolic = symbolicTarget(text);
  return symbolic === undefined ? undefined : { symbolic };
}

/** The target named by a symbolic ref file's text (`ref: refs/heads/main`), if it is one. */
function symbolicTarget(text: string): string | undefined {
  return /^ref: (refs\/[^\s]+)\n?$/.exec(text)?.[1];
}

const SPACE = 0x20;

/** Packed refs under a prefix in name order, and the oid of any packed name, of one version of `packed-refs`. */
export interface SortedPackedRefs {
  readonly entries: ReadonlyArray<{ name: string; oid: Oid }>;
  readonly oidOf: (name: string) => Oid | undefined;
}

/** Loose refs {@link PackedRefsFile} remembers at most (a repository's pages resolve a few names). */
const MAX_LOOSE_READS = 64;

/** `packed-refs` files bigger than this are not held in memory: git resolves their refs. */
const MAX_PACKED_REFS_BYTES = 16 * 1024 * 1024;

/**
 * One repository's `packed-refs`, parsed once per version of the file (its inode, size and
 * modification time): a repository with thousands of collaborative objects keeps megabytes of
 * refs there, too many to read again for every ref.
 */
export class PackedRefsFile {
  private stamp = '';
  private refs: Map<string, Oid> | undefined;
  /** The last {@link entriesUnder} answer, for the version of the file it was taken from. */
  private under: { refs: Map<string, Oid>; key: string; entries: Array<{ name: string; oid: Oid }> } | undefined;
  /** The last {@link sortedAsciiEntriesUnder} answer, for the version of the file it was taken from. */
  private sortedUnder: { refs: Map<string, Oid>; prefix: string; sorted: SortedPackedRefs | null } | undefined;
  /** Plain loose refs read lately, by name, with the `stat` of the file they were read from. */
  private readonly looseRead = new Map<string, { readonly stamp: string; readonly oid: Oid }>();

  /** @param now - the clock of the settle rule (tests move it ahead instead of sleeping) */
  constructor(
    private readonly gitDir: string,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The oid a ref points to, loose ref file first (git's order).
   * @param name - a validated full ref name
   * @returns the oid; null when the repository has no such ref; undefined when git must decide
   */
  resolve(name: string): Oid | null | undefined {
    const loose = this.readLoose(name);
    if (loose !== null) return loose;
    const refs = this.current();
    return refs === undefined || refs === MISSING ? undefined : (refs.get(name) ?? null);
  }

  /**
   * Every packed ref whose name starts with one of `prefixes`.
   * @returns the refs; an empty list when the repository has no `packed-refs` (but has its
   *   `refs` folder); undefined when git must decide
   */
  entriesUnder(prefixes: readonly string[]): Array<{ name: string; oid: Oid }> | undefined {
    return this.entriesOf(this.current(), prefixes);
  }

  /** {@link entriesUnder} of one version of the file (as {@link current} gave it). */
  private entriesOf(refs: Map<string, Oid> | typeof MISSING | undefined, prefixes: readonly string[]): Array<{ name: string; oid: Oid }> | undefined {
    if (refs === undefined) return undefined;
    // Only a missing file (not one too big or unreadable) means no packed refs.
    if (refs === MISSING) return isDirectory(path.join(this.gitDir, 'refs')) ? [] : undefined;
    // Kept per version of the file: a tracker's `packed-refs` holds tens of thousands of COB
    // refs, and a commit page asks for the same few prefixes every time.
    const key = prefixes.join('\n');
    if (this.under?.refs === refs && this.under.key === key) return this.under.entries;
    const entries: Array<{ name: string; oid: Oid }> = [];
    for (const [name, oid] of refs) if (prefixes.some((prefix) => name.startsWith(prefix))) entries.push({ name, oid });
    this.under = { refs, key, entries };
    return entries;
  }

  /**
   * {@link entriesUnder} one prefix, sorted by name (code units, which is git's byte order for
   * these names), kept per version of the file: a tracker's 26,000 COB refs are checked and
   * sorted once, not at every change of a loose ref over them.
   * @returns the sorted refs and the oid of any packed name in the same version of the file;
   *   null when a name is not valid printable ASCII (git must list them); undefined when git
   *   must decide
   */
  sortedAsciiEntriesUnder(prefix: string): SortedPackedRefs | null | undefined {
    const refs = this.current();
    if (refs !== undefined && refs !== MISSING && this.sortedUnder?.refs === refs && this.sortedUnder.prefix === prefix) return this.sortedUnder.sorted;
    const entries = this.entriesOf(refs, [prefix]);
    if (entries === undefined) return undefined;
    const sorted = entries.every(({ name }) => isValidAsciiRefName(name))
      ? { entries: [...entries].sort((a, b) => compareUtf8(a.name, b.name)), oidOf: (name: string) => (refs instanceof Map ? refs.get(name) : undefined) }
      : null;
    if (refs !== undefined && refs !== MISSING) this.sortedUnder = { refs, prefix, sorted };
    return sorted;
  }

  /**
   * A loose ref file's oid ({@link readLooseRef}), reused while a `stat` of the file is
   * unchanged and settled: the identity ref is resolved on every request to a repository, and
   * a `stat` costs less than opening and reading the file. Git replaces ref files by rename,
   * so an unchanged stamp means unchanged content; only plain refs are kept (a symbolic one's
   * target can move without its file changing).
   */
  private readLoose(name: string): Oid | null | undefined {
    let stats;
    try {
      stats = statSync(path.join(this.gitDir, name), { throwIfNoEntry: false });
    } catch {
      // Not a plain "no such file" (a file where a folder should be, no permission): read as before.
      this.looseRead.delete(name);
      return readLooseRef(this.gitDir, name);
    }
    if (stats === undefined) {
      this.looseRead.delete(name);
      return null;
    }
    const stamp = statPart(stats);
    const settled = isSettled(stats, this.now() - SETTLE_MS);
    const known = this.looseRead.get(name);
    if (known?.stamp === stamp && settled) return known.oid;
    const oid = readLooseRef(this.gitDir, name);
    // Stamped before the read, and only a settled stamp: a change during the read, or within
    // the same clock tick, shows as another stamp next time.
    if (typeof oid === 'string' && settled) {
      if (this.looseRead.size >= MAX_LOOSE_READS) this.looseRead.clear();
      this.looseRead.set(name, { stamp, oid });
    } else {
      this.looseRead.delete(name);
    }
    return oid;
  }

  /**
   * The packed refs of the current version of the file; {@link MISSING} when there is no file,
   * undefined when git must decide (too big, unreadable).
   */
  private current(): Map<string, Oid> | typeof MISSING | undefined {
    const file = path.join(this.gitDir, 'packed-refs');
    let stamp: string;
    try {
      const stat = statSync(file, { throwIfNoEntry: false });
      // No packed-refs: the ref is absent, or the repository itself is being moved or
      // removed. For a single ref git tells which (a null there would turn a vanishing
      // repository's refs into absent ones and its pages into wrong answers instead of errors).
      if (stat === undefined) return MISSING;
      if (stat.size > MAX_PACKED_REFS_BYTES) return undefined;
      stamp = `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
    } catch {
      return undefined;
    }
    if (stamp === this.stamp) return this.refs;
    const read = readOptional(file);
    if (read === null) return undefined;
    const refs = new Map<string, Oid>();
    if ('content' in read) {
      const content = read.content;
      // Fields decoded one by one: resolved ids outlive this version of the file (buffer-lines.ts).
      forEachLine(content, (start, end) => {
        // Comments and peeled lines (`^<oid>`) carry no ref of their own.
        const oid = lineOid(content, start, end, SPACE);
        if (oid !== null) refs.set(content.toString('latin1', start + AFTER_LINE_OID, end), oid);
      });
    }
    this.stamp = stamp;
    this.refs = refs;
    return refs;
  }
}

/** Loose ref files listed at most by {@link listRefFiles}: past it git lists them. */
const MAX_LISTED_LOOSE_REFS = 1024;

/**
 * The refs under `prefixes` as git's `for-each-ref` would list them (loose files over
 * `packed-refs`), read from the files: for a repository's branches, a handful of files.
 * @param gitDir - the repository
 * @param prefixes - validated `refs/…/` prefixes
 * @param packed - the repository's packed refs
 * @returns name and oid of each, in no particular order; undefined when git must decide (a
 *   symbolic ref, a malformed or oddly named ref, an unreadable folder, too many loose refs)
 */
export function listRefFiles(gitDir: string, prefixes: readonly string[], packed: PackedRefsFile): Array<{ name: string; oid: Oid }> | undefined {
  const packedEntries = packed.entriesUnder(prefixes);
  if (packedEntries === undefined) return undefined;
  const byName = new Map(packedEntries.map((entry) => [entry.name, entry.oid]));
  const budget = { left: MAX_LISTED_LOOSE_REFS };
  for (const prefix of prefixes) {
    if (!listLooseRefsInto(gitDir, prefix, { byName, symbolic: null }, budget)) return undefined;
  }
  return [...byName].map(([name, oid]) => ({ name, oid }));
}

/**
 * {@link listRefFiles} for one prefix, sorted by name as git's `for-each-ref` lists them, with
 * symbolic refs listed with the oid of their target when that is a plain ref under the prefix
 * (as git lists them; each namespace's `refs/rad/id` is one): the packed refs come checked and
 * sorted from `packed` (once per version of the file), and only the loose refs over them are
 * read, checked and merged in.
 * @returns the refs; undefined when git must decide (as for {@link listRefFiles}, or a name
 *   that is not printable ASCII)
 */
export function listSortedRefFiles(gitDir: string, prefix: string, packed: PackedRefsFile): ReadonlyArray<{ name: string; oid: Oid }> | undefined {
  const sortedPacked = packed.sortedAsciiEntriesUnder(prefix);
  if (sortedPacked == null) return undefined;
  const { entries: packedEntries, oidOf: packedOid } = sortedPacked;
  const loose = new Map<string, Oid>();
  const symbolic = new Map<string, string>();
  if (!listLooseRefsInto(gitDir, prefix, { byName: loose, symbolic }, { left: MAX_LISTED_LOOSE_REFS })) return undefined;
  // A symbolic ref hides the packed ref of its name and is listed with its target's oid.
  for (const [name, target] of symbolic) {
    const oid = target.startsWith(prefix) && !symbolic.has(target) ? (loose.get(target) ?? packedOid(target)) : undefined;
    if (oid === undefined) return undefined;
    loose.set(name, oid);
  }
  if (loose.size === 0) return packedEntries;
  const over: Array<{ name: string; oid: Oid }> = [];
  for (const [name, oid] of loose) {
    if (!isValidAsciiRefName(name)) return undefined;
    over.push({ name, oid });
  }
  over.sort((a, b) => compareUtf8(a.name, b.name));
  // Merged in name order, each loose ref placed by binary search and the packed refs between
  // copied in slices (a tracker's 26,000 packed refs were compared one by one after each
  // change); a loose ref replaces the packed one of its name.
  const pieces: Array<ReadonlyArray<{ name: string; oid: Oid }>> = [];
  let p = 0;
  for (const entry of over) {
    const at = firstNameNotBefore(packedEntries, entry.name, p);
    pieces.push(packedEntries.slice(p, at), [entry]);
    p = packedEntries[at]?.name === entry.name ? at + 1 : at;
  }
  pieces.push(packedEntries.slice(p));
  // concat copies whole arrays at once (`flat` took ~2 ms for 26,000 entries, concat ~0.1).
  return ([] as Array<{ name: string; oid: Oid }>).concat(...pieces);
}

/**
 * Adds the loose refs under the folder `prefix` (ending in `/`) to `found.byName`, and the
 * symbolic ones to `found.symbolic` when it is given; false when git must decide.
 */
function listLooseRefsInto(
  gitDir: string,
  prefix: string,
  found: { byName: Map<string, Oid>; symbolic: Map<string, string> | null },
  budget: { left: number },
): boolean {
  let entries;
  try {
    entries = readdirSync(path.join(gitDir, prefix), { withFileTypes: true });
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
  for (const entry of entries) {
    const name = prefix + entry.name;
    if (entry.isDirectory()) {
      if (!isValidRefName(name) || !listLooseRefsInto(gitDir, `${name}/`, found, budget)) return false;
      continue;
    }
    if (!entry.isFile() || !isValidRefName(name) || --budget.left < 0) return false;
    const ref = readLooseRefEntry(gitDir, name);
    // Gone since the folder was read: the packed ref (if any) stands, as for git.
    if (ref === null) continue;
    if (ref === undefined) return false;
    if (typeof ref === 'string') {
      found.byName.set(name, ref);
      continue;
    }
    if (found.symbolic === null) return false;
    // A loose symbolic ref hides a packed ref of the same name, as for git.
    found.byName.delete(name);
    found.symbolic.set(name, ref.symbolic);
  }
  return true;
}

/**
 * The target of a symbolic ref file such as `HEAD` (`ref: refs/heads/main`).
 * @returns the target ref name, or undefined when the file is missing, not symbolic or unreadable
 */
export function readSymbolicRefFile(gitDir: string, name: string): string | undefined {
  const file = readOptional(path.join(gitDir, name));
  if (file === null || !('content' in file)) return undefined;
  return symbolicTarget(file.content.toString('latin1'));
}

/** A loose object's type and content, or null when it is not loose (or not usable here). */
export function readLooseObject(gitDir: string, oid: Oid): { type: GitObjectType; data: Buffer } | null {
  const read = readLooseObjectFile(gitDir, oid);
  return 'type' in read ? read : null;
}

/** What reading a loose object file found. */
export type LooseObjectRead =
  | { readonly type: GitObjectType; readonly data: Buffer }
  /** Not a loose object here, too big, or unreadable: git decides. */
  | { readonly unusable: true }
  /**
   * The file inflates, but to fewer or more bytes than its header declares. git's cat-file
   * then answers the declared size and writes fewer bytes, which stalls a batch reader.
   */
  | { readonly corrupt: string };

/** Reads and checks one loose object file (see {@link LooseObjectRead}). */
export function readLooseObjectFile(gitDir: string, oid: Oid): LooseObjectRead {
  const unusable = { unusable: true } as const;
  const file = readOptional(path.join(gitDir, 'objects', oid.slice(0, 2), oid.slice(2)));
  if (file === null || !('content' in file) || file.content.length > MAX_COMPRESSED_BYTES) return unusable;
  let raw: Buffer;
  try {
    // Small inputs only (bounded above): a synchronous inflate takes microseconds.
    raw = inflateSync(file.content, { maxOutputLength: MAX_OBJECT_BYTES, chunkSize: INFLATE_CHUNK });
  } catch {
    return unusable;
  }
  const nul = raw.indexOf(0);
  const [type, size] = raw.toString('latin1', 0, Math.max(nul, 0)).split(' ');
  const data = raw.subarray(nul + 1);
  if (nul < 0 || type === undefined || !isGitObjectType(type) || !/^\d+$/.test(size ?? '')) return unusable;
  if (Number(size) !== data.length) return { corrupt: `loose object ${oid} holds ${data.length} bytes, its header says ${size}` };
  // A damaged file must not pass for the object: git would report it, so let git answer.
  return hashObject(type, data) === oid ? { type, data } : unusable;
}
