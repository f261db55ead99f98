import { type FSWatcher, watch } from 'node:fs';
import type { Rid } from '@forge-httpd/identity';
import { ridOfEntry } from './storage-entries.js';

/**
 * Tuning of the index's freshness work. Defaults: a sweep per second over up to 5,120
 * repositories, in slices of 128 at least 25 ms apart; larger storages take proportionally
 * longer per sweep. A check is one `stat` (microseconds), so the sweep never takes more than a
 * few percent of one core however many repositories there are, and a slice holds the
 * event loop for about a millisecond. Lower `chunkSize`/raise `minGapMs` to trade freshness
 * for CPU.
 */
export interface SweeperOptions {
  /** Target duration of one sweep over every repository, in ms (default 1000). */
  sweepMs: number;
  /** Repositories checked per slice (default 128). */
  chunkSize: number;
  /** Least pause between slices, in ms (default 25): above chunkSize × sweepMs / minGapMs
   * repositories (5,120 by default) a sweep takes proportionally longer than sweepMs. */
  minGapMs: number;
  /** Watch `storage/` with `fs.watch` (inotify) for repositories appearing or disappearing (default true). */
  watch: boolean;
}

/** What the sweeper drives (implemented by the StorageIndex). */
export interface SweepTarget {
  /** Re-lists `storage/`: loads new repositories, drops vanished ones. */
  rescan(): Promise<void>;
  /** The repositories to check this sweep. */
  entries(): Rid[];
  /** Compares one repository's identity stamp with the indexed one; schedules a reload if moved. */
  check(rid: Rid): void;
  /** A `storage/` entry named by this RID changed (watch event): reload or drop it. */
  touched(rid: Rid): void;
}

const DEFAULTS: SweeperOptions = { sweepMs: 1000, chunkSize: 128, minGapMs: 25, watch: true };
/** With a working watch, `storage/` is still re-listed every this many sweeps (lost events). */
const RESCAN_EVERY = 30;
/** Watch events are gathered this long: `git init` and a clone touch a directory in bursts. */
const DEBOUNCE_MS = 50;

/**
 * Keeps a storage index fresh off the request path. Freshness bound: a repository added to or
 * removed from `storage/`, or whose `refs/rad/id`/`packed-refs` changed (new identity
 * revision, made private, repacked), is reflected within one sweep — max(sweepMs, n /
 * 5,120 s) for n repositories with the defaults — plus its load (from loose objects, or a git
 * round trip). The watch of `storage/` makes removals, and additions moved into place
 * complete, show at once; a repository created in place (`git init`, then a fetch) shows at the first
 * sweep after its `refs/rad/id` is written. Without a watch (inotify unavailable or
 * exhausted) `storage/` is re-listed every sweep.
 * Per-repository watches are not used: they would take one or two inotify watches per
 * repository out of a per-user limit (`max_user_watches`) shared with every
 * other process of the user, which a large node can exhaust.
 */
export class IndexSweeper {
  private readonly options: SweeperOptions;
  private readonly root: string;
  private readonly log: (message: string) => void;
  private watcher: FSWatcher | null = null;
  private timer: NodeJS.Timeout | undefined;
  private wake: (() => void) | null = null;
  private readonly touchedNames = new Set<Rid>();
  private debounce: NodeJS.Timeout | undefined;
  private rescanRequested = false;
  private started = false;
  private closed = false;
  sweeps = 0;
  /** When the last sweep finished (epoch ms), or null before the first. */
  lastSweepAt: number | null = null;

  constructor(
    options: Partial<SweeperOptions> & { root: string; log?: (message: string) => void },
    private readonly target: SweepTarget,
  ) {
    this.options = {
      sweepMs: options.sweepMs ?? DEFAULTS.sweepMs,
      chunkSize: Math.max(1, options.chunkSize ?? DEFAULTS.chunkSize),
      minGapMs: options.minGapMs ?? DEFAULTS.minGapMs,
      watch: options.watch ?? DEFAULTS.watch,
    };
    this.root = options.root;
    this.log = options.log ?? (() => undefined);
  }

  /** Whether `storage/` is currently watched. */
  get watching(): boolean {
    return this.watcher !== null;
  }

  /** Starts the watch and the sweep loop (idempotent). */
  start(): void {
    if (this.started || this.closed) return;
    this.started = true;
    this.tryWatch();
    void this.loop();
  }

  /** Stops everything; pending timers are cleared. */
  close(): void {
    this.closed = true;
    this.watcher?.close();
    this.watcher = null;
    clearTimeout(this.timer);
    clearTimeout(this.debounce);
    this.wake?.();
  }

  private async loop(): Promise<void> {
    // Everything was just loaded: the first sweep comes one period later.
    await this.sleep(this.options.sweepMs);
    while (!this.closed) {
      try {
        await this.sweep();
      } catch (error) {
        this.log(`Storage index sweep failed: ${String(error)}`);
        await this.sleep(this.options.sweepMs);
      }
    }
  }

  /** One sweep: re-list when needed, then `stat` every repository in spaced slices. */
  private async sweep(): Promise<void> {
    if (this.options.watch && this.watcher === null) this.tryWatch();
    if (this.watcher === null || this.sweeps % RESCAN_EVERY === RESCAN_EVERY - 1) await this.target.rescan();
    const rids = this.target.entries();
    const { chunkSize, sweepMs, minGapMs } = this.options;
    const slices = Math.max(1, Math.ceil(rids.length / chunkSize));
    const gap = Math.max(minGapMs, sweepMs / slices);
    for (let slice = 0; slice < slices && !this.closed; slice++) {
      for (const rid of rids.slice(slice * chunkSize, (slice + 1) * chunkSize)) this.target.check(rid);
      await this.sleep(gap);
    }
    this.sweeps += 1;
    this.lastSweepAt = Date.now();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.wake = resolve;
      this.timer = setTimeout(resolve, ms);
      this.timer.unref();
    });
  }

  private tryWatch(): void {
    if (!this.options.watch || this.closed) return;
    try {
      const watcher = watch(this.root, { persistent: false }, (_event, name) => this.onEvent(name));
      watcher.on('error', (error) => {
        this.log(`Watching ${this.root} stopped (${error.message}); re-listing it every sweep instead`);
        watcher.close();
        if (this.watcher === watcher) this.watcher = null;
      });
      this.watcher = watcher;
    } catch {
      // No storage/ yet, or no inotify watch left: every sweep re-lists storage/ instead.
      this.watcher = null;
    }
  }

  private onEvent(name: string | Buffer | null): void {
    if (name === null) {
      this.rescanRequested = true;
    } else {
      const rid = ridOfEntry(name.toString());
      if (rid !== null) this.touchedNames.add(rid);
    }
    if (this.debounce === undefined) {
      this.debounce = setTimeout(() => this.flush(), DEBOUNCE_MS);
      this.debounce.unref();
    }
  }

  private flush(): void {
    this.debounce = undefined;
    if (this.closed) return;
    const rids = [...this.touchedNames];
    this.touchedNames.clear();
    for (const rid of rids) this.target.touched(rid);
    if (this.rescanRequested) {
      this.rescanRequested = false;
      this.target.rescan().catch((error: unknown) => this.log(`Storage index rescan failed: ${String(error)}`));
    }
  }
}
