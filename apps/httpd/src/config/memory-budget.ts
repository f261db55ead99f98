/** `--memory-budget` when neither the flag nor `FORGE_MEMORY_BUDGET` is given, in MiB. */
export const DEFAULT_MEMORY_BUDGET_MIB = 128;

/** Bytes one commit of a reachability index takes (a map slot, the id string, the mask). */
const REACHABILITY_BYTES_PER_COMMIT = 80;

const MIB = 1024 * 1024;

/**
 * The bounds of the big caches (ARCHITECTURE.md, "Caches"), all derived from one budget so an
 * operator sizes the server with one number. At the default budget they are the bounds the
 * server always had: 64 MiB of rendered answers, 8 MiB of URL index, ~250,000 indexed commits;
 * the last-commit indexes get 16 MiB (a 50,000-commit history takes ~9.5 MB).
 */
export interface CacheBounds {
  /** Rendered immutable answers and their compressed variants. */
  readonly responseBytes: number;
  /** The front cache's URL → answer index. */
  readonly urlIndexBytes: number;
  /** Commits held by every branch reachability index together. */
  readonly reachabilityCommits: number;
  /** Estimated bytes held by every last-commit-per-path index together (blob and readme pages). */
  readonly lastCommitBytes: number;
  /** Committer times of whole histories (`/activity`). */
  readonly commitTimesBytes: number;
  /** Tree answers (`/tree`). */
  readonly treeBytes: number;
  /** Garbage the JS heap may hold between full collections (platform/heap-headroom.ts), not a cache. */
  readonly heapHeadroomBytes: number;
}

/**
 * Shares of the budget. The rest (~4%) is headroom for the memos bounded by entry count (COB
 * facts, verdicts, stamps: a few MiB together) and the COB evaluations, which grow with the
 * number of issues and patches served rather than with traffic.
 */
const SHARES = {
  responseBytes: 1 / 2,
  urlIndexBytes: 1 / 16,
  reachability: 0.15,
  lastCommitBytes: 1 / 8,
  commitTimesBytes: 1 / 16,
  treeBytes: 1 / 16,
} as const;

/**
 * The heap headroom, on top of the caches: half the budget (64 MiB by default). At full bench
 * scale (~100 MB live) a soak's peak RSS was 590–606 MB with V8's own growth and 385–390 MB
 * with 64 MiB, at the same req/s; 32 MiB gave 349 MB but cost a history crawl at c=1 25–35 %
 * of its pages/s (tools/bench/README.md, "Heap headroom").
 */
const HEAP_HEADROOM_SHARE = 1 / 2;

/**
 * Divides a memory budget between the big caches.
 * @param budgetMiB - the budget, in MiB (0 turns those caches off)
 * @returns each cache's bound
 */
export function divideMemoryBudget(budgetMiB: number): CacheBounds {
  const bytes = budgetMiB * MIB;
  const share = (part: number): number => Math.floor(bytes * part);
  return {
    responseBytes: share(SHARES.responseBytes),
    urlIndexBytes: share(SHARES.urlIndexBytes),
    reachabilityCommits: Math.floor(share(SHARES.reachability) / REACHABILITY_BYTES_PER_COMMIT),
    lastCommitBytes: share(SHARES.lastCommitBytes),
    commitTimesBytes: share(SHARES.commitTimesBytes),
    treeBytes: share(SHARES.treeBytes),
    heapHeadroomBytes: share(HEAP_HEADROOM_SHARE),
  };
}
