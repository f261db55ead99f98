/**
 * For every commit of some histories: its committer time, its parents and, per parent, the
 * paths that differ (`diff-tree -r --no-renames`; a root commit against the empty tree). It
 * is enough to answer `git rev-list -1 <commit> -- <path>` without git (see
 * {@link CommitChanges.lastCommitTouching}). Everything is keyed by commit id, so nothing in
 * it goes stale; new histories are appended in batches (one batch = commits whose parents are
 * in the batch or already here).
 */
import type { CommitChangesSnapshot, StoredCommitChanges } from './commit-changes-file.js';
import { DateOrderQueue } from './date-order-queue.js';
import { FolderChanges, GroupWalk } from './folder-walk.js';
import type { Oid } from '../objects/oid.js';
import { OidTable } from '../objects/oid-table.js';

/** Bytes of a raw commit id. */
const OID_BYTES = 20;
import { runInSlices } from '../limits/thread-slices.js';

/** One commit of a batch: paths are latin1 strings of the path bytes. */
export interface CommitChangesEntry {
  readonly oid: Oid;
  readonly time: number;
  readonly parents: readonly Oid[];
  /** Changed paths against each parent, in parent order; one list against the empty tree for a root commit. */
  readonly changes: ReadonlyArray<readonly string[]>;
}

/** Estimated heap bytes per commit held (raw id and its table slot, time, edges; measured ~57). */
export const BYTES_PER_COMMIT = 64;
/** Estimated heap bytes per changed-path entry (one number in a flat array). */
export const BYTES_PER_CHANGE = 8;
/**
 * What commits and changed paths weigh in memory, estimated (the unit of the memory budget):
 * of a held index, or of a kept file's counts before it is read.
 */
export function commitChangesSize(counts: { readonly commits: number; readonly changes: number }): number {
  return counts.commits * BYTES_PER_COMMIT + counts.changes * BYTES_PER_CHANGE;
}

/** Entries an append handles between two looks at the clock. */
const STEP_ENTRIES = 256;

/** Commits, their parents and changed paths in flat arrays. */
export class CommitChanges {
  /** The commits' ids, numbered in the order they were appended. */
  private readonly ids = new OidTable();
  /** Commits visible to questions: those of whole batches (ids at and past it are being appended). */
  private published = 0;
  private readonly times: number[] = [];
  /** Edges of commit i: edgeStart[i] .. edgeStart[i + 1]; a root commit has one edge with parent -1. */
  private readonly edgeStart: number[] = [0];
  private readonly edgeParent: number[] = [];
  /** Paths changed along edge e: changeStart[e] .. changeStart[e + 1] of changePaths. */
  private readonly changeStart: number[] = [0];
  private readonly changePaths: number[] = [];
  private readonly pathIds = new Map<string, number>();
  private readonly paths: string[] = [];
  /** Every folder some changed path was in: only such a path can match more than its own id. */
  private readonly folders = new Set<string>();

  /** Estimated heap bytes held (the unit of the memory budget). */
  get size(): number {
    return commitChangesSize({ commits: this.ids.length, changes: this.changePaths.length });
  }

  has(oid: Oid): boolean {
    return this.idOf(oid) !== undefined;
  }

  /** The id of a commit held and visible. */
  private idOf(oid: Oid): number | undefined {
    const id = this.ids.idOf(oid);
    return id !== undefined && id < this.published ? id : undefined;
  }

  /** Commits held and visible. */
  get commits(): number {
    return this.published;
  }

  /** The visible commits' arrays, to be written now (commit-changes-file.ts): they change with the next append. */
  snapshot(): CommitChangesSnapshot {
    const { published: commits, times, edgeStart, edgeParent, changeStart, changePaths, paths } = this;
    return { commits, oidBytes: this.ids.rawIds.subarray(0, commits * OID_BYTES), times, edgeStart, edgeParent, changeStart, changePaths, paths };
  }

  /**
   * A new instance holding a checked file's commits, built in slices of about `sliceMs` like
   * {@link appendInSlices}. Null when the file names a commit or a path twice, or a tip it
   * does not hold, or when `keepGoing` says to stop between slices.
   */
  static async restoreInSlices(stored: StoredCommitChanges, options: { sliceMs: number; keepGoing?: () => boolean }): Promise<CommitChanges | null> {
    const restored = new CommitChanges();
    return (await runInSlices(restored.restoreSteps(stored), options))?.value === true ? restored : null;
  }

  private *restoreSteps(stored: StoredCommitChanges): Generator<void, boolean, void> {
    for (const [id, path] of stored.paths.entries()) {
      if (this.internPath(path) !== id) return false;
      if (id % STEP_ENTRIES === STEP_ENTRIES - 1) yield;
    }
    // The start arrays hold their leading 0 already.
    yield* copyInSteps(stored.times, this.times);
    yield* copyInSteps(stored.edgeStart.subarray(1), this.edgeStart);
    yield* copyInSteps(stored.edgeParent, this.edgeParent);
    yield* copyInSteps(stored.changeStart.subarray(1), this.changeStart);
    yield* copyInSteps(stored.changePaths, this.changePaths);
    for (let id = 0; id < stored.commits; id += 1) {
      const oid = stored.oidBytes.toString('hex', id * OID_BYTES, id * OID_BYTES + OID_BYTES) as Oid;
      if (this.ids.idOf(oid) !== undefined) return false;
      this.ids.add(oid);
      if (id % STEP_ENTRIES === STEP_ENTRIES - 1) yield;
    }
    this.published = this.ids.length;
    return stored.tips.every((tip) => this.has(tip));
  }

  /**
   * Appends a batch. Every parent must be in the batch or already held; otherwise nothing
   * is appended and false is returned. Done in slices of about `sliceMs` of this thread, each
   * followed by a turn of the event loop: a 50,000-commit history took 240-265 ms in one go, a
   * stall for every request that came meanwhile. No commit of the batch is held (for {@link has} and
   * {@link lastCommitTouching}) until all of it is. Stops, appending nothing more, when
   * `keepGoing` says so between slices (the index was dropped meanwhile).
   */
  async appendInSlices(batch: readonly CommitChangesEntry[], options: { sliceMs: number; keepGoing?: () => boolean }): Promise<boolean> {
    return (await runInSlices(this.appendSteps(batch), options))?.value ?? false;
  }

  /** The work of an append, pausing (yield) every {@link STEP_ENTRIES} entries. */
  private *appendSteps(batch: readonly CommitChangesEntry[]): Generator<void, boolean, void> {
    const first = this.ids.length;
    const fresh: CommitChangesEntry[] = [];
    const batchIds = new Map<Oid, number>();
    for (let at = 0; at < batch.length; at += 1) {
      const entry = batch[at] as CommitChangesEntry;
      if (this.idOf(entry.oid) === undefined) batchIds.set(entry.oid, first + fresh.push(entry) - 1);
      if (at % STEP_ENTRIES === STEP_ENTRIES - 1) yield;
    }
    const idInBatch = (oid: Oid): number | undefined => this.idOf(oid) ?? batchIds.get(oid);
    for (let at = 0; at < fresh.length; at += 1) {
      if ((fresh[at] as CommitChangesEntry).parents.some((parent) => idInBatch(parent) === undefined)) return false;
      if (at % STEP_ENTRIES === STEP_ENTRIES - 1) yield;
    }
    for (let at = 0; at < fresh.length; at += 1) {
      const entry = fresh[at] as CommitChangesEntry;
      this.ids.add(entry.oid);
      this.times.push(entry.time);
      const parents = entry.parents.length === 0 ? [-1] : entry.parents.map((parent) => idInBatch(parent) as number);
      parents.forEach((parent, edge) => {
        this.edgeParent.push(parent);
        for (const path of entry.changes[edge] ?? []) this.changePaths.push(this.internPath(path));
        this.changeStart.push(this.changePaths.length);
      });
      this.edgeStart.push(this.edgeParent.length);
      if (at % STEP_ENTRIES === STEP_ENTRIES - 1) yield;
    }
    // Held all at once: the ids are numbered as they are added, visible from here.
    this.published = this.ids.length;
    return true;
  }

  /**
   * `git rev-list -1 <from> -- <path>` with git's default history simplification
   * (try_to_simplify_commit in git's revision.c): commits are visited in rev-list order; a
   * commit is TREESAME when the path is unchanged against a parent, and then only the first
   * such parent is followed; the first commit that is not TREESAME (a root commit: one that
   * has the path) is the answer.
   * @param from - a held commit
   * @param path - the path bytes as a latin1 string, `/`-separated, not empty
   * @returns the commit, null when none touched the path, undefined when `from` is not held
   */
  lastCommitTouching(from: Oid, path: string): Oid | null | undefined {
    const start = this.idOf(from);
    if (start === undefined) return undefined;
    const matches = this.pathMatcher(path);
    if (matches === null) return null;
    const queue = new DateOrderQueue<number>();
    const seen = new Set<number>([start]);
    queue.push(start, this.times[start] as number);
    for (let commit = queue.pop(); commit !== undefined; commit = queue.pop()) {
      const first = this.edgeStart[commit] as number;
      const end = this.edgeStart[commit + 1] as number;
      let followed = -1;
      for (let edge = first; edge < end && followed < 0; edge += 1) if (!this.edgeTouches(edge, matches)) followed = edge;
      for (let edge = followed < 0 ? first : followed; edge < (followed < 0 ? end : followed + 1); edge += 1) {
        const parent = this.edgeParent[edge] as number;
        if (parent < 0 || seen.has(parent)) continue;
        seen.add(parent);
        queue.push(parent, this.times[parent] as number);
      }
      if (followed < 0) return this.ids.at(commit);
    }
    return null;
  }

  /**
   * {@link lastCommitTouching} of every entry of one folder in one walk: each entry's walk is
   * that of its own path (the parent followed at a merge is the first one unchanged for that
   * entry), kept in queue entries of entries that travel together, so the commits are visited
   * in the order each single walk would visit them and a walk for a path ends where its own would.
   * @param from - a held commit
   * @param folder - the folder's path bytes as a latin1 string (`''` = the root)
   * @param names - entry names as the tree listing decodes them (UTF-8)
   * @returns each name's commit (null when none touched it), in the order of `names`; undefined when `from` is not held
   */
  lastCommitsUnder(from: Oid, folder: string, names: readonly string[]): Array<Oid | null> | undefined {
    const start = this.idOf(from);
    if (start === undefined) return undefined;
    const answers: Array<Oid | null> = names.map(() => null);
    const touched = new FolderChanges(this, folder, names);
    const walk = new GroupWalk(this.times);
    walk.arrive(
      start,
      names.map((_, entry) => entry),
    );
    let left = names.length;
    for (let next = walk.next(); next !== undefined && left > 0; next = walk.next()) {
      const { commit, group } = next;
      const end = this.edgeStart[commit + 1] as number;
      // Each entry follows the first parent edge that leaves it unchanged; the entries every
      // edge changed are answered by this commit.
      let remaining = group;
      for (let edge = this.edgeStart[commit] as number; edge < end && remaining.length > 0; edge += 1) {
        touched.markChanged(edge);
        const changed = remaining.filter((entry) => touched.changed(entry));
        // The popped group is the walk's own to hand on whole (most commits change none of it).
        const unchanged = changed.length === 0 ? remaining : remaining.filter((entry) => !touched.changed(entry));
        const parent = this.edgeParent[edge] as number;
        if (unchanged.length > 0 && parent >= 0) walk.arrive(parent, unchanged);
        remaining = changed;
      }
      if (remaining.length > 0) {
        const oid = this.ids.at(commit);
        for (const entry of remaining) answers[entry] = oid;
        left -= remaining.length;
      }
    }
    return answers;
  }

  get pathCount(): number {
    return this.paths.length;
  }

  pathOf(id: number): string {
    return this.paths[id] as string;
  }

  forEachChangedPath(edge: number, visit: (id: number) => void): void {
    const end = this.changeStart[edge + 1] as number;
    for (let at = this.changeStart[edge] as number; at < end; at += 1) visit(this.changePaths[at] as number);
  }

  /** The ids of `path` and of every path under it (git pathspecs match folders too); null when none was ever changed. */
  private pathMatcher(path: string): ReadonlySet<number> | null {
    const ids = new Set<number>();
    const own = this.pathIds.get(path);
    if (own !== undefined) ids.add(own);
    if (this.folders.has(path)) {
      const prefix = `${path}/`;
      this.paths.forEach((candidate, id) => {
        if (candidate.startsWith(prefix)) ids.add(id);
      });
    }
    return ids.size === 0 ? null : ids;
  }

  private edgeTouches(edge: number, matches: ReadonlySet<number>): boolean {
    const end = this.changeStart[edge + 1] as number;
    for (let at = this.changeStart[edge] as number; at < end; at += 1) if (matches.has(this.changePaths[at] as number)) return true;
    return false;
  }

  private internPath(path: string): number {
    let id = this.pathIds.get(path);
    if (id === undefined) {
      id = this.paths.length;
      const copy = ownCopy(path);
      this.pathIds.set(copy, id);
      this.paths.push(copy);
      for (let slash = path.lastIndexOf('/'); slash > 0; slash = path.lastIndexOf('/', slash - 1)) {
        const folder = path.slice(0, slash);
        if (this.folders.has(folder)) break;
        this.folders.add(folder);
      }
    }
    return id;
  }
}

/** Pushes every element of `from` onto `into`, pausing every few thousand. */
function* copyInSteps(from: ArrayLike<number>, into: number[]): Generator<void, void, void> {
  for (let at = 0; at < from.length; at += 1) {
    into.push(from[at] as number);
    if (at % (STEP_ENTRIES * 16) === STEP_ENTRIES * 16 - 1) yield;
  }
}

/**
 * A string of its own: parsers cut ids and paths out of whole output chunks, and V8 keeps a
 * cut-out (sliced) string's parent alive, which would hold every chunk git ever printed.
 */
function ownCopy<T extends string>(text: T): string {
  return Buffer.from(text, 'latin1').toString('latin1');
}
