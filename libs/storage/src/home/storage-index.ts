import path from 'node:path';
import type { Did, Rid } from '@forge-httpd/identity';
import { isDirectory } from '../git/objects/stat-stamp.js';
import type { Flavour } from './flavour.js';
import { IndexEntries } from './index-entries.js';
import { identityStamp } from './identity-stamp.js';
import { IndexSweeper, type SweeperOptions } from './index-sweeper.js';
import { loadSummaryThroughGit, readSummaryFromFiles, type RepositorySummary, type SummaryLoad } from './repository-summary.js';
import { listStorageEntries } from './storage-entries.js';
import type { Storage } from './storage.js';

/** Options of {@link StorageIndex}; the sweep ones are documented on {@link SweeperOptions}. */
export interface StorageIndexOptions extends Partial<SweeperOptions> {
  storage: Storage;
  flavour: Flavour;
  /** Receives load failures (once per change) and watcher problems. */
  log?: (message: string) => void;
  /** The clock identity stamps are judged by (default `Date.now`; tests move it ahead instead of waiting). */
  now?: () => number;
}

/** Counters for tests and diagnostics. */
export interface StorageIndexStats {
  repositories: number;
  /** Summary loads that read a repository (files or git) since start. */
  loads: number;
  /** Completed stat sweeps over all repositories. */
  sweeps: number;
  /** Whether `storage/` is watched (inotify) for repositories appearing and disappearing. */
  watching: boolean;
  /**
   * When every summary was last confirmed against storage (epoch ms): the end of the last
   * sweep, else of the build; null while the first build runs.
   */
  confirmedAt: number | null;
}

const RID_PREFIX = 'rad:';
const BUILD_CONCURRENCY = 8;
const RELOAD_CONCURRENCY = 4;
/** Longest synchronous run of file loads before yielding to the event loop, in ms. */
const SLICE_MS = 5;

/**
 * An in-memory summary of every repository in `storage/` (identity head, document,
 * visibility, delegates, validated project, load error), so listings and search sort, filter
 * and paginate without opening repositories. Built on first {@link ready} — concurrent callers
 * share one build, which reads loose identity objects in time-boxed synchronous slices and asks
 * git (a few at a time) only for packed ones — then kept fresh off the request path by an
 * {@link IndexSweeper} (`fs.watch` on `storage/`, spaced `stat` sweeps of each repository's
 * identity refs), reloading only what changed. Freshness bound: see {@link IndexSweeper}.
 */
export class StorageIndex {
  private readonly entries: IndexEntries;
  private readonly sweeper: IndexSweeper;
  private readonly pending = new Set<Rid>();
  private building: Promise<void> | null = null;
  private builtAt: number | null = null;
  private seq = 0;
  private running = 0;
  private loads = 0;
  private closed = false;
  private readonly now: () => number;
  private readonly dids = new Map<string, string>();
  /** One string per distinct delegate DID: thousands of repositories often share a few. */
  private readonly intern = (text: string): string => {
    const known = this.dids.get(text);
    if (known !== undefined) return known;
    this.dids.set(text, text);
    return text;
  };

  constructor(private readonly options: StorageIndexOptions) {
    this.now = options.now ?? Date.now;
    this.entries = new IndexEntries(options.log);
    this.sweeper = new IndexSweeper(
      { ...options, root: options.storage.root },
      {
        rescan: () => this.rescan(),
        entries: () => this.entries.rids(),
        check: (rid) => this.check(rid),
        touched: (rid) => this.schedule(rid),
      },
    );
  }

  /** Increases whenever a summary is added, replaced or removed. */
  get version(): number {
    return this.entries.version;
  }

  /** Resolves once the index has been built (the first call starts the build and the sweeps). */
  ready(): Promise<void> {
    this.building ??= this.rescan(BUILD_CONCURRENCY).then(() => {
      this.builtAt = Date.now();
      if (!this.closed) this.sweeper.start();
    });
    return this.building;
  }

  /** Every summary, sorted by the RID's raw bytes. The array is shared: do not modify it. */
  list(): readonly RepositorySummary[] {
    return this.entries.list();
  }

  /** The summary of `rid` as indexed (at most one sweep old), or undefined. */
  get(rid: Rid): RepositorySummary | undefined {
    return this.entries.entry(rid)?.summary;
  }

  /** Summaries whose current document names `did` as a delegate, sorted like {@link list}. */
  delegatedTo(did: Did): readonly RepositorySummary[] {
    return this.entries.delegatedTo(did);
  }

  /**
   * The summary of `rid` checked against the repository now (one or two `stat` calls) and
   * reloaded first when its identity refs changed since it was indexed, so what a listing shows
   * is never staler than the request. Undefined when the repository is not in storage.
   */
  async current(rid: Rid): Promise<RepositorySummary | undefined> {
    await this.ready();
    const entry = this.entries.entry(rid);
    const gitDir = this.gitDirOf(rid);
    const state = identityStamp(gitDir, this.now());
    if (entry !== undefined && state?.settled === true && entry.stamp === state.key) return entry.summary;
    await this.load(rid, gitDir);
    return this.entries.entry(rid)?.summary;
  }

  /** Counters for tests and diagnostics. */
  stats(): StorageIndexStats {
    return {
      repositories: this.entries.size,
      loads: this.loads,
      sweeps: this.sweeper.sweeps,
      watching: this.sweeper.watching,
      confirmedAt: this.sweeper.lastSweepAt ?? this.builtAt,
    };
  }

  /** Stops the watcher and the sweeps. */
  close(): void {
    this.closed = true;
    this.sweeper.close();
  }

  /**
   * Lists `storage/`: loads repositories not indexed yet, drops the ones that are gone. Loads
   * from files run synchronously in slices of at most {@link SLICE_MS}, then yield to the event
   * loop; repositories that need git are loaded afterwards, `concurrency` at a time.
   */
  private async rescan(concurrency = RELOAD_CONCURRENCY): Promise<void> {
    const found = await listStorageEntries(this.options.storage.root);
    // Unreadable storage/ (e.g. replaced meanwhile): keep the entries; their sweeps decide.
    if (found === null) return;
    for (const rid of this.entries.rids()) if (!found.has(rid)) this.entries.remove(rid);
    const viaGit: Array<[Rid, string]> = [];
    let sliceStart = performance.now();
    for (const [rid, gitDir] of found) {
      if (this.closed) return;
      if (this.entries.entry(rid) !== undefined) continue;
      if (!this.loadFromFiles(rid, gitDir)) viaGit.push([rid, gitDir]);
      if (performance.now() - sliceStart > SLICE_MS) {
        await new Promise(setImmediate);
        sliceStart = performance.now();
      }
    }
    let next = 0;
    const worker = async (): Promise<void> => {
      for (let item = viaGit[next++]; item !== undefined && !this.closed; item = viaGit[next++]) await this.load(item[0], item[1]);
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  }

  /** Sweep step: schedules a reload when the repository's identity stamp moved. */
  private check(rid: Rid): void {
    const entry = this.entries.entry(rid);
    if (entry === undefined) return;
    const state = identityStamp(this.gitDirOf(rid), this.now());
    if (state === null || entry.stamp !== state.key || !state.settled) this.schedule(rid);
  }

  /** Queues a background reload of `rid` (a few run at a time; queued duplicates merge). */
  private schedule(rid: Rid): void {
    if (this.closed) return;
    this.pending.add(rid);
    this.pump();
  }

  private pump(): void {
    while (this.running < RELOAD_CONCURRENCY && this.pending.size > 0 && !this.closed) {
      const rid = this.pending.values().next().value as Rid;
      this.pending.delete(rid);
      this.running += 1;
      this.load(rid, this.gitDirOf(rid))
        .catch((error: unknown) => this.options.log?.(`Index reload of ${rid} failed: ${String(error)}`))
        .finally(() => {
          this.running -= 1;
          this.pump();
        });
    }
  }

  /** `storage/<z…>`: storage lists and opens repositories only under their canonical name. */
  private gitDirOf(rid: Rid): string {
    return `${this.options.storage.root}${path.sep}${rid.slice(RID_PREFIX.length)}`;
  }

  /** Starts a load: its sequence number and the stamp taken before reading anything. */
  private begin(rid: Rid, gitDir: string): { seq: number; stamp: string | null; input: SummaryLoad } | null {
    const seq = ++this.seq;
    // Stamp before reading: a change during the read shows as a different stamp next sweep.
    const state = identityStamp(gitDir, this.now());
    if (state === null) return null;
    const input: SummaryLoad = {
      rid,
      gitDir,
      objects: this.options.storage.runtime.objects,
      flavour: this.options.flavour,
      previous: this.entries.entry(rid)?.summary,
      withRepository: (use) => this.options.storage.withRepository(rid, use),
      intern: this.intern,
    };
    return { seq, stamp: state.settled ? state.key : null, input };
  }

  /** Loads from files only; false when git is needed. */
  private loadFromFiles(rid: Rid, gitDir: string): boolean {
    const started = this.begin(rid, gitDir);
    if (started === null) {
      this.entries.remove(rid);
      return true;
    }
    const summary = readSummaryFromFiles(started.input);
    if (summary === undefined) return false;
    this.loads += 1;
    this.entries.put(rid, { stamp: started.stamp, seq: started.seq, summary });
    return true;
  }

  private async load(rid: Rid, gitDir: string): Promise<void> {
    const started = this.begin(rid, gitDir);
    if (started === null) return this.entries.remove(rid);
    const summary = readSummaryFromFiles(started.input) ?? (await loadSummaryThroughGit(started.input));
    this.loads += 1;
    if (this.closed) return;
    // A directory removed meanwhile must not come back from a load that started before.
    if (summary === null || !isDirectory(gitDir)) return this.entries.remove(rid);
    this.entries.put(rid, { stamp: started.stamp, seq: started.seq, summary });
  }
}
