/**
 * The parts of {@link CommitChanges.lastCommitsUnder}: which entries of a folder each parent
 * edge changed, and the queue of (commit, entries) the walk visits in rev-list's order.
 */
import { DateOrderQueue } from './date-order-queue.js';

/** What {@link FolderChanges} reads of an index: the ids of the paths changed along one edge. */
export interface EdgePaths {
  /** Paths held (ids 0 … pathCount - 1), fixed while a walk runs (it runs synchronously). */
  readonly pathCount: number;
  /** The path of an id, as a latin1 string. */
  pathOf(id: number): string;
  /** Calls `visit` with the id of each path changed along `edge`. */
  forEachChangedPath(edge: number, visit: (id: number) => void): void;
}

/** Entry of a path id not looked up yet. */
const UNKNOWN = -2;
/** Entry of a path outside the folder, or not one of its names. */
const NONE = -1;

/**
 * The entries of one folder changed along an edge, marked per entry ({@link markChanged}): no
 * set per edge is built or kept (a walk over a long history meets tens of thousands), and each
 * path is matched to its entry once per walk.
 */
export class FolderChanges {
  private readonly prefix: string;
  /** Entry index by the name's bytes (latin1), filled as names are met. */
  private readonly bySegment = new Map<string, number>();
  private readonly byName: ReadonlyMap<string, number>;
  private readonly entryOfPath: Int32Array;
  /** Per entry, the mark of the last edge that changed it. */
  private readonly marks: Uint32Array;
  private mark = 0;
  private readonly markPath = (id: number): void => {
    const entry = this.entryOf(id);
    if (entry >= 0) this.marks[entry] = this.mark;
  };

  /**
   * @param index - the changed paths of each edge
   * @param folder - latin1 path bytes, `''` for the root
   * @param names - the folder's entry names as decoded from its tree (UTF-8)
   */
  constructor(
    private readonly index: EdgePaths,
    folder: string,
    names: readonly string[],
  ) {
    this.prefix = folder === '' ? '' : `${folder}/`;
    this.byName = new Map(names.map((name, entry) => [name, entry]));
    this.entryOfPath = new Int32Array(index.pathCount).fill(UNKNOWN);
    this.marks = new Uint32Array(names.length);
  }

  /** Marks the entries changed along `edge`: {@link changed} answers for this edge until the next call. */
  markChanged(edge: number): void {
    this.mark += 1;
    this.index.forEachChangedPath(edge, this.markPath);
  }

  /** Whether the edge last marked changed `entry`. */
  changed(entry: number): boolean {
    return this.marks[entry] === this.mark;
  }

  /** The entry a changed path is (or is under), {@link NONE} when outside the folder. */
  private entryOf(id: number): number {
    const known = this.entryOfPath[id];
    if (known !== undefined && known !== UNKNOWN) return known;
    const entry = this.lookUp(this.index.pathOf(id));
    if (known !== undefined) this.entryOfPath[id] = entry;
    return entry;
  }

  private lookUp(path: string): number {
    if (!path.startsWith(this.prefix)) return NONE;
    const slash = path.indexOf('/', this.prefix.length);
    const segment = path.slice(this.prefix.length, slash < 0 ? undefined : slash);
    let entry = this.bySegment.get(segment);
    if (entry === undefined) {
      // Tree names are decoded from UTF-8 (lossily): a changed path's name is decoded the same way.
      entry = this.byName.get(Buffer.from(segment, 'latin1').toString('utf8')) ?? NONE;
      this.bySegment.set(segment, entry);
    }
    return entry;
  }
}

/**
 * Commits to visit, each with the entries that reached it. Each entry walks a chain (at a
 * commit it follows one parent, or stops there), so the order in which entries reach a commit
 * does not change any entry's answer: entries that reach a commit still queued join its group
 * and the commit is looked at once for all of them (chains meet again after a merge, and would
 * otherwise walk the same commits side by side).
 */
export class GroupWalk {
  private readonly queue = new DateOrderQueue<{ commit: number; group: number[] }>();
  /** The queued visit of each commit not popped yet. */
  private readonly queued = new Map<number, { commit: number; group: number[] }>();

  constructor(private readonly times: readonly number[]) {}

  /** Queues `commit` for the entries of `group` (which the walk may keep and extend). */
  arrive(commit: number, group: number[]): void {
    const visit = this.queued.get(commit);
    if (visit !== undefined) {
      for (const entry of group) visit.group.push(entry);
      return;
    }
    const fresh = { commit, group };
    this.queued.set(commit, fresh);
    this.queue.push(fresh, this.times[commit] as number);
  }

  /** The next commit to look at, with its group (the caller's from here on). */
  next(): { commit: number; group: number[] } | undefined {
    const visit = this.queue.pop();
    if (visit !== undefined) this.queued.delete(visit.commit);
    return visit;
  }
}
