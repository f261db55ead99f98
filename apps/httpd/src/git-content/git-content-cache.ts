import { Injectable } from '@nestjs/common';
import type { Tree } from '@forge-httpd/api-types';
import type { Oid } from '@forge-httpd/storage';
import { BoundedCache } from '@forge-httpd/bounded-cache';
import { divideMemoryBudget } from '../config/memory-budget.js';
import { ServerConfig } from '../config/server-config.js';
import type { BlobContent } from './blob-content.mapper.js';

/** Commit count and distinct authors reachable from one commit. */
export interface HistoryStats {
  commits: number;
  contributors: number;
}

/** Estimated bytes of a tree answer: its entries' strings and objects, and the commit. */
function treeBytes(tree: Tree): number {
  let bytes = 1024;
  for (const entry of tree.entries) bytes += 160 + (entry.path.length + entry.name.length) * 2;
  return bytes;
}

/** A blob of a diff's `files` map, ready to serialize, with its size (the map's bound counts it). */
export interface PreparedBlob extends BlobContent {
  readonly size: number;
}

/** Estimated bytes of a prepared blob: its buffers or its base64 text, and the objects. */
function preparedBlobBytes(blob: PreparedBlob): number {
  const { content } = blob;
  return 200 + (typeof content === 'string' ? content.length : content.heldBytes);
}

/**
 * Process-wide caches of the browsing routes (docs/radicle-httpd.md §9: derive once, reuse).
 * History results are keyed by commit id alone (a commit's history is the same in every
 * repository; callers check that the commit exists in theirs first); the tree cache also by
 * repository. Keys are content-addressed, so entries never go stale. Lookups always come after
 * the repository gate (`RepositoryAccess.openPublic`). The byte bounds come from the memory budget.
 */
@Injectable()
export class GitContentCache {
  /** Head commit → committer times of its whole history (activity filters by the clock). */
  readonly commitTimes: BoundedCache<string, number[]>;
  /** Commit → history statistics (stats/tree). */
  readonly historyStats = new BoundedCache<string, HistoryStats>({ maxEntries: 256 });
  /**
   * Repository + blob → the blob as a diff's `files` map serializes it. Pages of consecutive
   * commits show the same blobs again (the old side of one is often the new side of the next):
   * on a real history a large part of a commit page's blob bytes were seen on the pages just
   * before it.
   */
  readonly diffBlobs: BoundedCache<string, PreparedBlob>;
  /** Repository + commit + requested path → tree answer (docs/radicle-httpd.md §9's tree LRU, 100 entries). */
  readonly trees: BoundedCache<string, Tree>;

  constructor(config: ServerConfig) {
    const bounds = divideMemoryBudget(config.memoryBudgetMiB);
    // Committer times are a packed array of doubles.
    this.commitTimes = new BoundedCache({ maxEntries: 32, maxWeight: bounds.commitTimesBytes, weigh: (times) => 64 + times.length * 8 });
    this.trees = new BoundedCache({ maxEntries: 100, maxWeight: bounds.treeBytes, weigh: treeBytes });
    this.diffBlobs = new BoundedCache({ maxWeight: bounds.diffBlobBytes, weigh: preparedBlobBytes });
  }

  /** The {@link diffBlobs} key of a blob of one repository. */
  static diffBlobKey(gitDir: string, oid: Oid): string {
    return `${gitDir}\0${oid}`;
  }
}
