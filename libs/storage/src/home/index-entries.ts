import { BoundedCache } from '@forge-httpd/bounded-cache';
import { type Did, oidHexFromRid, type Rid } from '@forge-httpd/identity';
import { NO_IDENTITY, type RepositorySummary } from './repository-summary.js';

/** One indexed repository. */
export interface IndexEntry {
  /** Hex of the RID's bytes: sorts like the raw bytes, without decoding base58 per comparison. */
  readonly sortKey: string;
  /** The identity stamp the summary was loaded at; null when it was not settled yet. */
  stamp: string | null;
  /** Sequence number of the load that produced `summary`: an older load never overwrites it. */
  loadSeq: number;
  summary: RepositorySummary;
}

/** A finished load, as {@link IndexEntries.put} takes it. */
export interface LoadedSummary {
  stamp: string | null;
  seq: number;
  summary: RepositorySummary;
}

const MAX_DELEGATE_LISTS = 256;

function bySortKey(a: IndexEntry, b: IndexEntry): number {
  return a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0;
}

/**
 * The storage index's entries and the views requests read: the RID-sorted list (re-sorted only
 * when repositories come or go) and per-delegate lists, both rebuilt lazily after a change.
 */
export class IndexEntries {
  private readonly entries = new Map<Rid, IndexEntry>();
  private readonly errors = new Map<Rid, string>();
  private sorted: IndexEntry[] | null = null;
  private listed: { version: number; summaries: RepositorySummary[] } | null = null;
  private readonly delegateLists = new BoundedCache<Did, readonly RepositorySummary[]>({ maxEntries: MAX_DELEGATE_LISTS });
  private delegateVersion = -1;
  /** Increases whenever a summary is added, replaced or removed. */
  version = 0;

  constructor(private readonly log: (message: string) => void = () => undefined) {}

  /** Number of indexed repositories. */
  get size(): number {
    return this.entries.size;
  }

  /** The entry of `rid`, or undefined. */
  entry(rid: Rid): IndexEntry | undefined {
    return this.entries.get(rid);
  }

  /** A snapshot of the indexed RIDs (unordered). */
  rids(): Rid[] {
    return [...this.entries.keys()];
  }

  /** Every summary, sorted by the RID's raw bytes. The array is shared: do not modify it. */
  list(): readonly RepositorySummary[] {
    if (this.listed?.version !== this.version) {
      this.sorted ??= [...this.entries.values()].sort(bySortKey);
      this.listed = { version: this.version, summaries: this.sorted.map((entry) => entry.summary) };
    }
    return this.listed.summaries;
  }

  /** Summaries whose document names `did` as a delegate, sorted like {@link list}. */
  delegatedTo(did: Did): readonly RepositorySummary[] {
    if (this.delegateVersion !== this.version) {
      this.delegateLists.clear();
      this.delegateVersion = this.version;
    }
    return this.delegateLists.getOrCompute(did, () => this.list().filter((summary) => summary.document?.delegates.includes(did) === true));
  }

  /** Stores a load's result unless a later load already did. */
  put(rid: Rid, loaded: LoadedSummary): void {
    const entry = this.entries.get(rid);
    if (entry !== undefined && entry.loadSeq > loaded.seq) return;
    this.report(rid, loaded.summary.error);
    if (entry === undefined) {
      const { stamp, seq, summary } = loaded;
      this.entries.set(rid, { sortKey: oidHexFromRid(rid), stamp, loadSeq: seq, summary });
      this.sorted = null;
      this.version += 1;
      return;
    }
    entry.stamp = loaded.stamp;
    entry.loadSeq = loaded.seq;
    if (entry.summary !== loaded.summary) {
      entry.summary = loaded.summary;
      this.version += 1;
    }
  }

  /** Forgets `rid` (its directory is gone). */
  remove(rid: Rid): void {
    this.errors.delete(rid);
    if (!this.entries.delete(rid)) return;
    this.sorted = null;
    this.version += 1;
  }

  /**
   * Logs a load failure once per distinct message (a sweep must not repeat it every second);
   * a repository without identity ref yet is being created, which is not worth a line.
   */
  private report(rid: Rid, error: string | null): void {
    if (error === null || error === NO_IDENTITY) {
      this.errors.delete(rid);
    } else if (this.errors.get(rid) !== error) {
      this.errors.set(rid, error);
      this.log(`Repository ${rid} is not listed: ${error}`);
    }
  }
}
