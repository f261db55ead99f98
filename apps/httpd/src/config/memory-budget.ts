/** `--memory-budget` when neither the flag nor `FORGE_MEMORY_BUDGET` is given, in MiB. */
export const DEFAULT_MEMORY_BUDGET_MIB = 64;

/** Bytes one commit of a reachability index takes (a map slot, the id string, the mask). */
const REACHABILITY_BYTES_PER_COMMIT = 80;

const MIB = 1024 * 1024;

/**
 * The bounds of the big caches (ARCHITECTURE.md, "Caches"), all derived from one budget so an
 * operator sizes the server with one number. The default budget gives 17 MiB of rendered
 * answers, 1 MiB of compressed bodies of answers built again, 18 MiB of issues and patches
 * (a 12,000-object tracker is estimated at ~15 MB with a cache directory, where views are
 * read back per page; ~30 MB without one), 2 MiB of URL
 * index, 2 MiB of blobs ready for diff pages and ~83,000 indexed commits; the last-commit
 * indexes get 12 MiB (a 50,000-commit history is estimated at ~11 MB).
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
 * Shares of the budget. The rest (~2.5%) is headroom for the memos bounded by entry count
 * (verdicts, stamps, opened repositories: a few MiB together). The COB stores got their share
 * from the rendered answers, the URL index, reachability, commit times and trees (which had
 * 1/2, 1/16, 0.15, 1/16, 1/16): evaluated issues and patches were the one memo that grew with
 * the repositories served (tools/bench/README.md, "Memory per repository served"). The diff
 * pages' blobs took theirs from the rendered answers (3/8 before), which a crawl of pages asked
 * for once does not fill (tools/bench/README.md, "File contents as bytes"). The last-commit
 * indexes took 1/16 from the rendered answers (11/32 and 1/8 before) when the default budget
 * went from 128 to 64 MiB, so a 50,000-commit history's index still fits it
 * (tools/bench/README.md, "A default budget of 64 MiB"). The compressed bodies of answers
 * built again took 1/64 from the rendered answers (9/32 before): a 10,000-row policy list's
 * gzip and brotli bodies take ~450 KB (tools/bench/README.md, "Compressed once").
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
 * The heap headroom, on top of the caches: half the budget (32 MiB by default). At full bench
 * scale (~100 MB live) a soak's peak RSS was 590–606 MB with V8's own growth and 385–390 MB
 * with 64 MiB, at the same req/s; 32 MiB gave 349 MB but cost a history crawl at c=1 25–35 %
 * of its pages/s (tools/bench/README.md, "Heap headroom").
 */
const HEAP_HEADROOM_SHARE = 1 / 2;

/**
 * The young generation's bound: an eighth of the budget (8 MiB by default, where V8 alone
 * grows it to 32 MiB), never below 8 MiB, where scavenges would come too often. A flood of
 * 6,000 distinct commit, tree and history pages on the full benchmark home peaked at 348–369 MB
 * against 377–388 MB, pages/s within noise (tools/bench/README.md, "The young generation, and
 * pages asked for once").
 */
const YOUNG_GENERATION_SHARE = 1 / 8;
/**
 * Commit ids of long answers being written: an eighth of the budget (8 MiB by default, eight
 * 50,000-commit histories at once). A miss flood of whole-history ranges held 14.4 MB of such
 * ids in 19 answers, and slow clients keep theirs as long as they read (tools/bench/README.md,
 * "Native memory in a miss flood"; "Clients that stop reading, and big pages asked for at once").
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
