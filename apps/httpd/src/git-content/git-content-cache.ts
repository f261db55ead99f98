import { Injectable } from '@nestjs/common';
import type { Tree } from '@forge-httpd/api-types';
import { LruCache } from './lru-cache.js';

/** Commit count and distinct authors reachable from one commit. */
export interface HistoryStats {
  commits: number;
  contributors: number;
}

/**
 * Process-wide caches of the browsing routes. History results are keyed by commit id alone
 * (a commit's history is the same in every repository; callers check that the commit exists
 * in theirs first); the tree cache also by repository. Lookups always come after the
 * repository gate (`RepositoryAccess.openPublic`).
 */
@Injectable()
export class GitContentCache {
  /** Head commit → committer times of its whole history (activity filters by the clock). */
  readonly commitTimes = new LruCache<number[]>(32);
  /** Commit → history statistics (stats/tree). */
  readonly historyStats = new LruCache<HistoryStats>(256);
  /** Repository + commit + requested path → tree answer (docs/radicle-httpd.md §9's tree LRU, 100 entries). */
  readonly trees = new LruCache<Tree>(100);
}
