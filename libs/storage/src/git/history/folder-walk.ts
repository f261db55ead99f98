/**
 * The parts of {@link CommitChanges.lastCommitsUnder}: which entries of a folder each parent
 * edge changed, and the queue of (commit, entries) the walk visits in rev-list's order.
 */
import { DateOrderQueue } from './date-order-queue.js';

/** What {@link FolderChanges} reads of an index: the paths changed along one edge. */
interface EdgePaths {
  changedPaths(edge: number): Iterable<string>;
}

/** The entries of one folder changed along each edge, read from the index once per edge. */
export class FolderChanges {
  private readonly prefix: string;
  /** Entry index by the name's bytes (latin1), filled as names are met. */
  private readonly bySegment = new Map<string, number | null>();
  private readonly byName: ReadonlyMap<string, number>;
  private readonly edges = new Map<number, ReadonlySet<number>>();

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
  }

  /** Entries (indices into the names) changed along `edge`. */
  of(edge: number): ReadonlySet<number> {
    let entries = this.edges.get(edge);
    if (entries === undefined) {
      const found = new Set<number>();
      for (const path of this.index.changedPaths(edge)) {
        const entry = this.entryOf(path);
        if (entry !== null) found.add(entry);
      }
      entries = found;
      this.edges.set(edge, entries);
    }
    return entries;
  }

  /** The entry a changed path is (or is under), null when outside the folder. */
  private entryOf(path: string): number | null {
    if (!path.startsWith(this.prefix)) return null;
    const slash = path.indexOf('/', this.prefix.length);
    const segment = path.slice(this.prefix.length, slash < 0 ? undefined : slash);
    let entry = this.bySegment.get(segment);
    if (entry === undefined) {
      // Tree names are decoded from UTF-8 (lossily): a changed path's name is decoded the same way.
      entry = this.byName.get(Buffer.from(segment, 'latin1').toString('utf8')) ?? null;
      this.bySegment.set(segment, entry);
    }
    return entry;
  }
}

/**
 * Commits to visit, each with the entries that reached it: an entry reaches a commit once
 * (as its own walk marks a commit seen once), and a group that arrives is queued by itself,
 * as its single walks would queue the commit at that moment.
 */
export class GroupWalk {
  private readonly queue = new DateOrderQueue<{ commit: number; group: readonly number[] }>();
  /** The entries that have reached each commit. */
  private readonly arrived = new Map<number, Array<readonly number[]>>();

  constructor(private readonly times: readonly number[]) {}

  /** Queues `commit` for the entries of `group` that have not reached it before. */
  arrive(commit: number, group: readonly number[]): void {
    const before = this.arrived.get(commit);
    let fresh = group;
    if (before === undefined) this.arrived.set(commit, [group]);
    else {
      const seen = new Set(before.flat());
      fresh = group.filter((entry) => !seen.has(entry));
      if (fresh.length === 0) return;
      before.push(fresh);
    }
    this.queue.push({ commit, group: fresh }, this.times[commit] as number);
  }

  next(): { commit: number; group: readonly number[] } | undefined {
    return this.queue.pop();
  }
}
