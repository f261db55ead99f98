/**
 * Commit-graphs of our own, with changed-path Bloom filters, for repositories whose storage has
 * none or one without those filters.
 *
 * git answers history questions (branch containment, `rev-list`, the last commit touching a
 * path) from a repository's commit-graph file when there is one, and parses every commit
 * otherwise, several times slower on a long history, and slower again without changed-path
 * Bloom filters. A node's
 * storage has one only after `git gc` ran there, which Radicle's `gc --auto` after a fetch does
 * only past its thresholds, so a freshly seeded repository has none. And the graph `git gc`
 * writes has no Bloom filters unless one was first written with them, so the last commit
 * touching a path is found faster through ours.
 *
 * The storage stays read-only: the file is written into a directory of ours (one per
 * repository, under the server's cache directory), which every git process on that repository
 * then reads as an extra object directory (overlay-object-directories.ts): after the storage's
 * own when it has no graph, before it when its graph lacks the filters. The directory holds
 * no objects. A commit-graph that misses newer commits is still correct (git parses those),
 * so it is written again only when a new pack arrived and it is old enough.
 */
import { ProcessFailedError } from '@forge-httpd/identity';
import { mkdir, open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { graphHasChangedPaths } from './commit-graph-file.js';
import type { OverlayPlacement } from '../objects/overlay-object-directories.js';
import type { GitProcesses } from '../processes/git-processes.js';
import { PACK_INDEX_HEADER_BYTES, readPackIndexFanout } from '../objects/pack-index.js';
import { runGit } from '../processes/run-git.js';
import { statQuiet } from '../objects/stat-stamp.js';

/** Packed objects below which a repository gets no commit-graph of ours. */
const DEFAULT_COMMIT_GRAPH_MIN_OBJECTS = 5_000;
/** How old our commit-graph must be before a newer pack makes us write it again. */
const DEFAULT_COMMIT_GRAPH_REFRESH_MS = 10 * 60_000;

const GRAPH_FILE = path.join('info', 'commit-graph');
/** `git commit-graph write` with Bloom filters takes seconds on a long history; this bounds a stuck one. */
const WRITE_TIMEOUT_MS = 10 * 60_000;

/** Options of {@link CommitGraphOverlays}. */
export interface CommitGraphOverlaysOptions {
  /** A directory of ours (created when needed): one subdirectory per repository. */
  readonly root: string;
  /** The processes that write the graphs, and whose git processes read them (their overlays). */
  readonly processes: GitProcesses;
  /** Packed objects a repository needs to get a commit-graph of ours (default 5,000). */
  readonly minObjects?: number;
  /** See {@link DEFAULT_COMMIT_GRAPH_REFRESH_MS}. */
  readonly refreshMs?: number;
  /** Receives one line per commit-graph that could not be written. */
  readonly log?: (message: string) => void;
  readonly now?: () => number;
}

/** What a {@link CommitGraphOverlays} did so far, for tests and diagnostics. */
export interface CommitGraphOverlayStats {
  /** Commit-graphs written (or written again) by this process. */
  readonly written: number;
  /** Repositories whose git processes read a commit-graph of ours. */
  readonly inUse: number;
}

interface Candidate {
  readonly gitDir: string;
  readonly objectDir: string;
  readonly placement: OverlayPlacement;
}

/**
 * Decides, per opened repository, whether git should read a commit-graph of ours, and writes
 * it in the background (one at a time, at background CPU priority).
 */
export class CommitGraphOverlays {
  private readonly inUse = new Map<string, string>();
  private readonly queue: Candidate[] = [];
  private running: Promise<void> | null = null;
  private written = 0;
  private closed = false;
  private readonly usable: boolean;

  constructor(private readonly options: CommitGraphOverlaysOptions) {
    // git reads GIT_ALTERNATE_OBJECT_DIRECTORIES as a `:`-separated list.
    this.usable = path.isAbsolute(options.root) && !/[:"\n]/.test(options.root);
    if (!this.usable) options.log?.(`commit-graphs are not kept in ${JSON.stringify(options.root)} (an absolute path without ':' is needed)`);
  }

  /**
   * Called once per opened repository, and for every repository by the start-up pass: an
   * existing commit-graph of ours is used at once; whether one is (re)written is decided in the
   * background. Cheap, never throws.
   * @param name - the repository's directory name in storage (names its directory of ours)
   * @param gitDir - its git directory
   * @param when - `opened` (default): a repository whose storage has a graph without Bloom
   *   filters gets ours written only by the `pass`. That write reads every commit's changes
   *   (seconds of git's CPU on a long history); on a first open it ran beside the repository's
   *   first pages and slowed them. Without any graph, containment and walks need one at once.
   */
  consider(name: string, gitDir: string, when: 'opened' | 'pass' = 'opened'): void {
    if (!this.usable || this.closed) return;
    const objectDir = path.join(this.options.root, name);
    // A header and a chunk table per layer: a few small reads.
    const ownFilters = graphHasChangedPaths(path.join(gitDir, 'objects'));
    if (ownFilters === true) {
      this.stopUsing(gitDir, objectDir);
      return;
    }
    const placement = ownFilters === undefined ? 'after' : 'before';
    if (isFile(path.join(objectDir, GRAPH_FILE))) this.use({ gitDir, objectDir, placement });
    if (placement === 'before' && when === 'opened') return;
    this.queue.push({ gitDir, objectDir, placement });
    this.running ??= this.drain();
  }

  /** Resolves once every repository considered so far was looked at (and written). */
  async idle(): Promise<void> {
    while (this.running !== null) await this.running;
  }

  stats(): CommitGraphOverlayStats {
    return { written: this.written, inUse: this.inUse.size };
  }

  /** Writes nothing more, waits for a write under way, and stops git reading ours. */
  async close(): Promise<void> {
    this.closed = true;
    this.queue.length = 0;
    await this.idle();
    for (const [gitDir, objectDir] of this.inUse) this.options.processes.overlays.remove(gitDir, objectDir);
    this.inUse.clear();
  }

  private async drain(): Promise<void> {
    try {
      for (let next = this.queue.shift(); next !== undefined && !this.closed; next = this.queue.shift()) {
        try {
          await this.update(next);
        } catch (error) {
          // A lock held by another worker writing the same file is no problem.
          if (!(error instanceof ProcessFailedError && error.stderr.includes('.lock'))) {
            this.options.log?.(`commit-graph for ${next.gitDir} not written: ${(error as Error).message}`);
          }
        }
      }
    } finally {
      // In the same step as the last look at the queue: a repository considered from now on
      // starts a new drain.
      this.running = null;
    }
  }

  private async update(candidate: Candidate): Promise<void> {
    const { gitDir, objectDir } = candidate;
    const packs = await readPacks(gitDir);
    if (packs.objects < (this.options.minObjects ?? DEFAULT_COMMIT_GRAPH_MIN_OBJECTS)) return;
    const graph = await stat(path.join(objectDir, GRAPH_FILE)).catch(() => null);
    if (graph !== null) {
      const now = (this.options.now ?? Date.now)();
      const fresh = packs.newestMs <= graph.mtimeMs || now - graph.mtimeMs < (this.options.refreshMs ?? DEFAULT_COMMIT_GRAPH_REFRESH_MS);
      if (fresh) return;
    }
    await mkdir(path.join(objectDir, 'info'), { recursive: true, mode: 0o700 });
    // git accepts --object-dir only for one of the repository's object directories: ours is
    // one from here on (it holds no objects, and no commit-graph until this write renames it
    // into place).
    if (!this.use(candidate)) return;
    await runGit({
      gitDir,
      processes: this.options.processes,
      args: ['commit-graph', 'write', '--reachable', '--changed-paths', `--object-dir=${objectDir}`],
      background: true,
      timeoutMs: WRITE_TIMEOUT_MS,
    });
    this.written += 1;
  }

  private use({ gitDir, objectDir, placement }: Candidate): boolean {
    if (!this.options.processes.overlays.add(gitDir, objectDir, placement)) return false;
    this.inUse.set(gitDir, objectDir);
    return true;
  }

  private stopUsing(gitDir: string, objectDir: string): void {
    if (!this.inUse.delete(gitDir)) return;
    this.options.processes.overlays.remove(gitDir, objectDir);
  }
}

/** Objects in a repository's packs (from each index's fan-out table) and the newest pack's time. */
async function readPacks(gitDir: string): Promise<{ objects: number; newestMs: number }> {
  const packDir = path.join(gitDir, 'objects', 'pack');
  const names = await readdir(packDir).catch(() => [] as string[]);
  let objects = 0;
  let newestMs = 0;
  for (const name of names) {
    if (!name.endsWith('.idx')) continue;
    objects += await packIndexObjects(path.join(packDir, name));
    const pack = await stat(path.join(packDir, `${name.slice(0, -4)}.pack`)).catch(() => null);
    if (pack !== null) newestMs = Math.max(newestMs, pack.mtimeMs);
  }
  return { objects, newestMs };
}

/**
 * A pack index's number of objects, from its header alone (read asynchronously: the pass over
 * every repository stays off the event loop); 0 when unreadable or not an index we read.
 */
async function packIndexObjects(file: string): Promise<number> {
  const handle = await open(file, 'r').catch(() => null);
  if (handle === null) return 0;
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(PACK_INDEX_HEADER_BYTES), 0, PACK_INDEX_HEADER_BYTES, 0);
    return bytesRead === PACK_INDEX_HEADER_BYTES ? (readPackIndexFanout(buffer)[255] ?? 0) : 0;
  } catch {
    return 0;
  } finally {
    await handle.close();
  }
}

function isFile(file: string): boolean {
  return statQuiet(file)?.isFile() === true;
}
