/**
 * Reads the {@link CommitChangesEntry} of every commit reachable from some tips and not from
 * others, with two processes whatever the history's size: `rev-list --parents --timestamp`
 * for the graph (the committer times rev-list orders by), then one `diff-tree --stdin` fed a
 * `<commit> <parent>` line per edge (`<commit>` alone for a root, against the empty tree),
 * `-r --raw --no-renames -z --always` so every line answers with exactly one header and the
 * paths are raw bytes.
 *
 * A merge's changes against its later parents are held only where they can decide an answer.
 * A walk asks about a later parent only for a path that changed against the first one (see
 * `CommitChanges.lastCommitTouching`), so of each path changed against a later parent it keeps
 * the longest of its prefixes (itself or a folder above it) that is also a prefix of a path
 * changed against the first parent: a question about any such prefix gets the same answer. On
 * a merge-heavy history this is what lets the index fit: a merge of a topic based on an old
 * base differs from that topic in everything merged since, thousands of paths that no
 * question can reach.
 */
import { ProcessFailedError, TooLargeError } from '@forge-httpd/identity';
import { BYTES_PER_CHANGE, BYTES_PER_COMMIT, type CommitChangesEntry } from './commit-changes.js';
import { isOid, type Oid } from '../objects/oid.js';
import { streamGit } from '../processes/run-git.js';
import { INDEX_SLICE_MS, ThreadSlices } from '../limits/thread-slices.js';
import type { GitTarget } from '../processes/git-processes.js';

/** Background reads may take long on big histories; they never hold a request. */
const BUILD_TIMEOUT_MS = 10 * 60_000;
/** Hex digits of a commit id (validated before use). */
const OID_HEX = 40;
/** Commits written between two looks at the clock. */
const LINES_PER_CLOCK_LOOK = 256;

/** Input of {@link readCommitChanges}. */
export interface CommitChangesRange {
  readonly tips: readonly Oid[];
  /** Commits already read: the walk stops at them. */
  readonly exclude: readonly Oid[];
  /** Most estimated heap bytes to read (see {@link BYTES_PER_COMMIT}). */
  readonly limit: number;
  /**
   * Only the changes one folder's entries need (default: every path): `''` the root's own
   * entries (`diff-tree` without `-r`: a changed folder is one path), else the paths under the
   * folder (a literal pathspec).
   */
  readonly folder?: string;
}

interface GraphEntry {
  readonly oid: Oid;
  readonly time: number;
  readonly parents: Oid[];
}

/**
 * Reads the commits of `tips ^exclude` with their per-parent changed paths.
 * @param at - repository, and the processes git runs under
 * @param range - tips, exclusions and the size limit
 * @returns one entry per commit, in rev-list order
 * @throws TooLargeError past `limit`; ProcessFailedError when git fails or answers unexpectedly
 */
export async function readCommitChanges(at: GitTarget, range: CommitChangesRange): Promise<CommitChangesEntry[]> {
  for (const oid of [...range.tips, ...range.exclude]) if (!isOid(oid)) throw new ProcessFailedError('invalid tip');
  const graph = await readGraph(at, range);
  const { input, edges, laterParents } = await edgeLines(graph);
  const parser = new RawSectionParser(Math.floor((range.limit - graph.length * BYTES_PER_COMMIT) / BYTES_PER_CHANGE), laterParents);
  const args = diffTreeArguments(range.folder);
  await streamGit({ ...at, args, input, timeoutMs: BUILD_TIMEOUT_MS, background: true }, (chunk) => parser.push(chunk));
  const sections = parser.end();
  if (sections.length !== edges) throw new ProcessFailedError(`diff-tree answered ${sections.length} of ${edges} lines`);
  let next = 0;
  return graph.map(({ oid, time, parents }) => ({ oid, time, parents, changes: sections.slice(next, (next += Math.max(1, parents.length))) }));
}

/** `diff-tree --stdin` for every path, the root's entries only, or the paths under one folder. */
function diffTreeArguments(folder: string | undefined): string[] {
  const common = ['--stdin', '-z', '--raw', '--no-renames', '--root', '--always'];
  if (folder === undefined) return ['diff-tree', '-r', ...common];
  if (folder === '') return ['diff-tree', ...common];
  return ['--literal-pathspecs', 'diff-tree', '-r', ...common, '--', folder];
}

/**
 * diff-tree's input: a `<commit> <parent>` line per edge, `<commit>` alone for a root, written
 * into one buffer in slices of this thread. Built as strings and joined at once, the lines of
 * a long history held the thread too long.
 */
async function edgeLines(graph: readonly GraphEntry[]): Promise<{ input: Buffer; edges: number; laterParents: Uint8Array }> {
  let edges = 0;
  let bytes = 0;
  for (const { parents } of graph) {
    edges += Math.max(1, parents.length);
    bytes += parents.length === 0 ? OID_HEX + 1 : parents.length * (2 * OID_HEX + 2);
  }
  const input = Buffer.allocUnsafe(bytes);
  // 1 for an edge to a merge's second or later parent.
  const laterParents = new Uint8Array(edges);
  const slices = new ThreadSlices(INDEX_SLICE_MS);
  let at = 0;
  let edge = 0;
  for (let index = 0; index < graph.length; index += 1) {
    const { oid, parents } = graph[index] as GraphEntry;
    if (parents.length === 0) {
      at += input.write(oid, at, 'latin1');
      at = input.writeUInt8(0x0a, at);
      edge += 1;
    }
    for (const [position, parent] of parents.entries()) {
      if (position > 0) laterParents[edge] = 1;
      edge += 1;
      at += input.write(oid, at, 'latin1');
      at = input.writeUInt8(0x20, at);
      at += input.write(parent, at, 'latin1');
      at = input.writeUInt8(0x0a, at);
    }
    if (index % LINES_PER_CLOCK_LOOK === LINES_PER_CLOCK_LOOK - 1 && slices.due()) await slices.turn();
  }
  return { input, edges, laterParents };
}

async function readGraph(at: GitTarget, range: CommitChangesRange): Promise<GraphEntry[]> {
  const commits: GraphEntry[] = [];
  let partial = '';
  let malformed = false;
  const args = ['rev-list', '--parents', '--timestamp', '--end-of-options', ...range.tips, ...range.exclude.map((oid) => `^${oid}`)];
  await streamGit({ ...at, args, timeoutMs: BUILD_TIMEOUT_MS, background: true }, (chunk) => {
    const lines = (partial + chunk.toString('latin1')).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      const [time = '', oid = '', ...parents] = line.split(' ');
      malformed ||= !isOid(oid) || !parents.every(isOid);
      commits.push({ oid: oid as Oid, time: Number(time), parents: parents as Oid[] });
    }
    // Thrown below, never from inside the stream callback.
    return malformed || commits.length * BYTES_PER_COMMIT > range.limit ? 'stop' : undefined;
  });
  if (malformed || partial !== '') throw new ProcessFailedError('unexpected rev-list output');
  if (commits.length * BYTES_PER_COMMIT > range.limit) throw new TooLargeError('history over the index budget');
  return commits;
}

/**
 * Splits `diff-tree -z --raw --always` output into one path list per header. A token is a
 * header unless it follows a raw record (`:<modes> <oids> <status>`), whose one path
 * (`--no-renames`) is the next token; so neither a path that looks like an id nor one that
 * starts with `:` is misread. Errors are kept and thrown by `end`, never from a stream callback.
 */
class RawSectionParser {
  private readonly sections: string[][] = [];
  /**
   * One string per distinct path: a token cut from an output chunk would keep the whole
   * chunk alive (V8 sliced strings), i.e. all of git's output until the batch is appended.
   */
  private readonly paths = new Map<string, string>();
  private partial = '';
  private current: string[] | null = null;
  /** For a later parent's section: the prefixes of the paths of the merge's first-parent section, and what is kept. */
  private reducing: { readonly prefixes: ReadonlySet<string>; readonly kept: Set<string> } | null = null;
  private expectPath = false;
  private error: Error | null = null;

  /**
   * @param budget - changed-path entries that may still be read
   * @param laterParents - per section, 1 when it is a merge's change against a later parent
   */
  constructor(
    private budget: number,
    private readonly laterParents: Uint8Array,
  ) {}

  push(chunk: Buffer): 'stop' | void {
    const tokens = (this.partial + chunk.toString('latin1')).split('\0');
    this.partial = tokens.pop() ?? '';
    for (const token of tokens) this.take(token);
    if (this.budget < 0) this.error ??= new TooLargeError('history over the index budget');
    return this.error === null ? undefined : 'stop';
  }

  /** The path lists, one per header. */
  end(): string[][] {
    if (this.error === null && (this.partial !== '' || this.expectPath)) this.error = new ProcessFailedError('diff-tree output ended inside a record');
    if (this.error !== null) throw this.error;
    if (this.current !== null) this.sections.push(this.current);
    this.current = null;
    return this.sections;
  }

  private take(token: string): void {
    if (this.expectPath) {
      this.expectPath = false;
      const path = this.reducing === null ? this.intern(token) : this.deciding(token, this.reducing);
      if (path === null) return;
      this.current?.push(path);
      this.budget -= 1;
    } else if (token.startsWith(':') && this.current !== null) {
      this.expectPath = true;
    } else if (isOid(token)) {
      if (this.current !== null) this.sections.push(this.current);
      this.current = [];
      this.reducing = this.reducingFor(this.sections.length);
    } else {
      this.error ??= new ProcessFailedError('unexpected diff-tree output');
    }
  }

  private intern(token: string): string {
    let path = this.paths.get(token);
    if (path === undefined) {
      path = Buffer.from(token, 'latin1').toString('latin1');
      this.paths.set(path, path);
    }
    return path;
  }

  /** What section `section` is reduced against: nothing unless it is a merge's change against a later parent. */
  private reducingFor(section: number): { prefixes: ReadonlySet<string>; kept: Set<string> } | null {
    if (this.laterParents[section] !== 1) return null;
    // The second parent's section follows the first parent's; an octopus merge's later ones share its prefixes.
    const sharing = this.laterParents[section - 1] === 1 ? this.reducing : null;
    return { prefixes: sharing?.prefixes ?? prefixesOf(this.sections[section - 1] ?? []), kept: new Set() };
  }

  /** The longest prefix of `token` that a question reaching this section can be about, once per section; null when there is none. */
  private deciding(token: string, reducing: { readonly prefixes: ReadonlySet<string>; readonly kept: Set<string> }): string | null {
    let prefix = token;
    while (!reducing.prefixes.has(prefix)) {
      const slash = prefix.lastIndexOf('/');
      if (slash <= 0) return null;
      prefix = prefix.slice(0, slash);
    }
    if (reducing.kept.has(prefix)) return null;
    const path = this.intern(prefix);
    reducing.kept.add(path);
    return path;
  }
}

/** Every path of `paths` and every folder above one. */
function prefixesOf(paths: readonly string[]): Set<string> {
  const prefixes = new Set<string>();
  for (const path of paths) {
    prefixes.add(path);
    for (let slash = path.lastIndexOf('/'); slash > 0; slash = path.lastIndexOf('/', slash - 1)) prefixes.add(path.slice(0, slash));
  }
  return prefixes;
}
