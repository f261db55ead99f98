/**
 * What the readers of one open repository share (open-git-repository.ts builds it): the
 * repository's files, its long-lived git processes, and the caches and indexes kept for it.
 * Each reader takes the parts it uses; `closed` tells work started in the background that the
 * repository has been closed since.
 */
import type { CatFileProcess } from './processes/cat-file-process.js';
import type { DiffTreeProcess } from './processes/diff-tree-process.js';
import type { LastCommitIndex } from './history/last-commit-index.js';
import type { ObjectFiles } from './objects/object-files.js';
import type { PackedRefsFile } from './objects/loose-files.js';
import type { ReachabilityIndex } from './graph/reachability-index.js';
import type { RefListingCache } from './refs/ref-listing-cache.js';
import type { RepositoryCommitGraph } from './graph/repository-commit-graph.js';
import type { GitTarget } from './processes/git-processes.js';

export interface RepositoryContext {
  readonly gitDir: string;
  /** The repository with the git processes of the runtime it was opened with: what git commands run against. */
  readonly at: GitTarget;
  /** The pack and loose object files, read in process. */
  readonly objectFiles: ObjectFiles;
  /** Loose refs and `packed-refs`, read in process. */
  readonly refFiles: PackedRefsFile;
  /** The long-lived `cat-file`: objects and refs the files do not answer, and bulk reads. */
  readonly catFile: CatFileProcess;
  /** The long-lived diffs: the whole output, and one without renames and copies (exact-moves.ts). */
  readonly diffTree: { readonly whole: DiffTreeProcess; readonly withoutMoves: DiffTreeProcess };
  /** Ref listings by prefix, kept while the ref files are unchanged. */
  readonly refListings: RefListingCache;
  /** The commit-graph read in process. */
  readonly commitGraph: RepositoryCommitGraph;
  /** Which branches reach which commits, in memory. */
  readonly reachability: ReachabilityIndex;
  /** The last commit that touched each path, in memory. */
  readonly lastCommits: LastCommitIndex;
  /** Whether the event loop is too busy for work in process. */
  readonly load: { isBusy(): boolean };
  closed: boolean;
}
