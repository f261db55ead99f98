/**
 * Issues and patches evaluated ahead of the first visitor: after start-up, every public
 * repository with COB refs is evaluated in the background, in the gaps between requests, so
 * the first repository page (whose info carries the issue and patch counts) and the first issue
 * listing are answered from memory instead of evaluating thousands of objects while someone
 * waits. With a cache directory the results are also kept there, so a restart starts warm.
 */
import { isPublicSummary, mayHaveNamespacedRefs, type NodeHome } from '@forge-httpd/storage';
import type { CobStoreService } from '../cobs/cob-store.service.js';
import type { RepositoryAccess } from '../repository-access/repository-access.service.js';

/**
 * Objects evaluated at once in the background: fewer than a listing's 16, so a request that
 * arrives mid-way waits for at most a few evaluations of the background's before its own.
 */
export const COBS_AHEAD_CONCURRENCY = 4;

/** What a background pass did. */
export interface CobsAheadReport {
  /** Public repositories looked at. */
  readonly repositories: number;
  /** Of those, the ones with issue or patch objects. */
  readonly withObjects: number;
  /** Issue and patch objects now current in memory. */
  readonly objects: number;
  /** False when it stopped early (aborted). */
  readonly complete: boolean;
  /** Wall time of the pass, in ms. */
  readonly ms: number;
}

/** What the pass reads and how it yields. */
export interface CobsAheadOptions {
  readonly home: NodeHome;
  readonly access: RepositoryAccess;
  readonly cobs: CobStoreService;
  /** Awaited before each repository and each object: resolve when it is the background's turn. */
  readonly pace: () => Promise<void>;
  /** Stops the pass (server closing). */
  readonly signal?: AbortSignal;
  /** Told of a repository the pass could not evaluate (it goes on with the next). */
  readonly onError?: (rid: string, error: unknown) => void;
}

/** Evaluates the issues and patches of every public repository; never throws. */
export async function evaluateCobsAhead(options: CobsAheadOptions): Promise<CobsAheadReport> {
  const started = performance.now();
  const { access, cobs, pace, signal } = options;
  let [repositories, withObjects, objects] = [0, 0, 0];
  const report = (complete: boolean): CobsAheadReport => ({ repositories, withObjects, objects, complete, ms: Math.round(performance.now() - started) });
  try {
    await options.home.storageIndex.ready();
  } catch {
    return report(false);
  }
  for (const summary of options.home.storageIndex.list().filter(isPublicSummary)) {
    await pace();
    if (signal?.aborted === true) return report(false);
    repositories++;
    try {
      // The same gate as every request: what is not public (any more) is never read.
      const repository = await access.tryOpenPublic(summary.rid);
      // Most repositories of a node have no issue or patch: they cost a look at their ref
      // files, not a git process for a ref listing.
      if (repository === null || !mayHaveNamespacedRefs(repository.git.gitDir, 'refs/cobs/')) continue;
      const { snapshot } = await cobs.view(repository);
      const prepared = await snapshot.prepareListings({ concurrency: COBS_AHEAD_CONCURRENCY, pace, signal });
      if (prepared.objects > 0) withObjects++;
      objects += prepared.objects;
      if (!prepared.complete) return report(false);
    } catch (error) {
      options.onError?.(summary.rid, error);
    }
  }
  return report(true);
}
