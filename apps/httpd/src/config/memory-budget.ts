/** `--memory-budget` when neither the flag nor `FORGE_MEMORY_BUDGET` is given, in MiB. */
export const DEFAULT_MEMORY_BUDGET_MIB = 64;

/** Bytes one commit of a reachability index takes (a map slot, the id string, the mask). */
const REACHABILITY_BYTES_PER_COMMIT = 80;

const MIB = 1024 * 1024;

/**
 * The bounds of the big caches (ARCHITECTURE.md, "Caches"), all derived from one budget so an
 * operator sizes the server with one number. The default is sized so that a 50,000-commit
 * history's last-commit index (or a real 80,000-commit one, merges included) and a 10,000-issue tracker (read back per page from the cache
 * directory) fit at once (docs/operating.md, "Memory, workers and the cache directory").
 */
export interface CacheBounds {
  /** Rendered immutable answers and their compressed variants. */
  readonly responseBytes: number;
  /** Compressed bodies of answers built again for every request, served again unchanged (response-cache/compressed-bodies.ts). */
  readonly compressedBodyBytes: number;
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
  /** Blobs of diff pages' `files` maps, escaped for JSON (commit and diff pages). */
  readonly diffBlobBytes: number;
  /** Estimated bytes of the COB stores of all repositories together (evaluated issues, patches, their ref indexes). */
  readonly cobStoreBytes: number;
  /** Garbage the JS heap may hold between full collections (platform/heap-headroom.ts), not a cache. */
  readonly heapHeadroomBytes: number;
  /** Largest young generation of the JS heap (platform/young-generation-cap.ts), not a cache; 0: V8's own. */
  readonly youngGenerationBytes: number;
  /**
   * Commit ids held by answers written as they are read (long ranges, listings without a page
   * size), not a cache: past it such answers get 503 (one is always let in).
   */
  readonly heldCommitIdBytes: number;
  /**
   * Answers written and not yet taken by their clients, over every connection, not a cache:
   * past it big pages (diffs, blobs, raw files) get 503 until clients catch up.
   */
  readonly unsentAnswerBytes: number;
}

/**
 * Shares of the budget. The rest is headroom for the memos bounded by entry count (verdicts,
 * stamps, opened repositories). Evaluated issues and patches get the biggest share because they
 * are the one memo that grows with the repositories served; rendered answers come next, since
 * a crawl of pages asked for once should not push out the indexes that every page reuses.
 */
const SHARES = {
  responseBytes: 17 / 64,
  compressedBodyBytes: 1 / 64,
  urlIndexBytes: 1 / 32,
  reachability: 0.1,
  lastCommitBytes: 3 / 16,
  commitTimesBytes: 1 / 32,
  treeBytes: 1 / 32,
  diffBlobBytes: 1 / 32,
  cobStoreBytes: 9 / 32,
} as const;

/**
 * The heap headroom, on top of the caches: half the budget. Left to itself V8 lets the heap grow
 * to several times what survived the last collection; a smaller headroom saves little more
 * memory and costs throughput on history crawls, where garbage comes fast.
 */
const HEAP_HEADROOM_SHARE = 1 / 2;

/**
 * The young generation's bound: an eighth of the budget, never below the minimum, where
 * scavenges would come too often. V8 alone grows it four times larger on a busy server, which
 * costs resident memory and buys no throughput.
 */
const YOUNG_GENERATION_SHARE = 1 / 8;
/**
 * Commit ids of long answers being written: an eighth of the budget, room for several
 * whole-history answers at once. Without a bound a flood of whole-history ranges, or slow
 * clients that keep theirs as long as they read, would hold ids without limit.
 */
const HELD_COMMIT_IDS_SHARE = 1 / 8;

/**
 * Answers waiting for their clients: as much as the whole budget (they are in flight, not
 * kept), at least 16 MiB, so that even a small budget serves a few big pages to slow clients.
 */
const UNSENT_ANSWER_MIN_BYTES = 16 * MIB;

/** The smallest young generation bound any budget gives (the process starts with it). */
export const YOUNG_GENERATION_MIN_BYTES = 8 * MIB;

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
    compressedBodyBytes: share(SHARES.compressedBodyBytes),
    urlIndexBytes: share(SHARES.urlIndexBytes),
    reachabilityCommits: Math.floor(share(SHARES.reachability) / REACHABILITY_BYTES_PER_COMMIT),
    lastCommitBytes: share(SHARES.lastCommitBytes),
    commitTimesBytes: share(SHARES.commitTimesBytes),
    treeBytes: share(SHARES.treeBytes),
    diffBlobBytes: share(SHARES.diffBlobBytes),
    cobStoreBytes: share(SHARES.cobStoreBytes),
    heapHeadroomBytes: share(HEAP_HEADROOM_SHARE),
    youngGenerationBytes: bytes === 0 ? 0 : Math.max(YOUNG_GENERATION_MIN_BYTES, share(YOUNG_GENERATION_SHARE)),
    heldCommitIdBytes: share(HELD_COMMIT_IDS_SHARE),
    unsentAnswerBytes: Math.max(UNSENT_ANSWER_MIN_BYTES, bytes),
  };
}
