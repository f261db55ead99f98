import { BoundedCache } from '@forge-httpd/bounded-cache';
import type { GitCommit } from '../format/git-objects.js';

/**
 * Commits read by first-page walks, keyed by repository and id: paging through a history
 * walks the commits of the pages before it again (page n of 30 walks 30·(n+1) commits), and
 * the pages of neighbouring commits overlap. Only walks whose start the repository itself
 * holds (checked first) use it: the parents of a commit a repository holds are there too (the
 * node's storage is never shallow), and a commit's id fixes its content.
 */
export type WalkedCommits = BoundedCache<string, GitCommit>;

/**
 * The cache of walked commits one runtime's repositories share.
 * @returns an empty cache bounded by an estimate of its commits' heap bytes
 */
export function createWalkedCommits(): WalkedCommits {
  return new BoundedCache<string, GitCommit>({
    maxWeight: 8 * 1024 * 1024,
    weigh: (commit) => 512 + 3 * commit.rawMessage.length + commit.headers.reduce((sum, header) => sum + 2 * header.value.length, 0),
  });
}
