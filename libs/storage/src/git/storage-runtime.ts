/**
 * The machinery the reads of every repository share: one object, created once by whoever
 * reads storage (the server at start-up, a tool, a test) and passed down to
 * `openGitRepository`, `openNodeHome` and the git server pool. Sharing is the point: limits
 * and budgets bound the whole process only when every repository counts against the same ones.
 */
import { IndexBudget } from './limits/index-budget.js';
import type { Semaphore } from './limits/semaphore.js';
import { DEFAULT_REACHABILITY_BUDGET } from './graph/reachability-index.js';
import { HeldCommitIds } from './history/held-commit-ids.js';
import { DEFAULT_LAST_COMMIT_BUDGET } from './history/last-commit-index.js';
import { createLongWalkSlots } from './history/walk-commits-until.js';
import { createWalkedCommits, type WalkedCommits } from './history/walked-commits.js';
import { ObjectReads } from './objects/object-reads.js';
import { GitProcesses } from './processes/git-processes.js';
import { NamespacedRefsProbe } from './refs/namespaced-refs-probe.js';

/** What long history walks share. */
export interface HistoryShares {
  /** Long-range walks at once (the `rev-list` of a long range and each chunk of its reads). */
  readonly longWalks: Semaphore;
  /** The bound long answers' commit ids count against, for repositories given none of their own. */
  readonly heldCommitIds: HeldCommitIds;
  /** Commits read by first-page walks, by repository and id. */
  readonly walkedCommits: WalkedCommits;
}

/** The memory budgets in-memory indexes share, for repositories given none of their own. */
export interface IndexBudgets {
  /** Commits held by branch reachability indexes (and the commit-graphs held for them). */
  readonly reachability: IndexBudget;
  /** Estimated heap bytes of last-commit-per-path indexes. */
  readonly lastCommits: IndexBudget;
}

/**
 * Processes, limits, budgets, shared caches and read buffers of storage reads. Create one per
 * process (a server, a tool) and hand it to everything that opens repositories; a test makes
 * its own.
 */
export class StorageRuntime {
  /** Starting git (the spawn helper, the git binary, overlay object directories) and its process limits. */
  readonly processes = new GitProcesses();
  /** In-process object reads: open packs, delta bases, the read buffer, the inflater, the thread-load gauge. */
  readonly objects = new ObjectReads();
  readonly history: HistoryShares = { longWalks: createLongWalkSlots(), heldCommitIds: new HeldCommitIds(), walkedCommits: createWalkedCommits() };
  readonly budgets: IndexBudgets = {
    reachability: new IndexBudget(DEFAULT_REACHABILITY_BUDGET),
    lastCommits: new IndexBudget(DEFAULT_LAST_COMMIT_BUDGET),
  };
  /** A look at ref files before git is asked, with `packed-refs` answers remembered. */
  readonly namespacedRefs = new NamespacedRefsProbe();
}
