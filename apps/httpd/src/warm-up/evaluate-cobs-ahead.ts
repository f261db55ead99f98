/**
 * Issues and patches evaluated ahead of the first visitor: after start-up, the issues and
 * patches of every public repository are evaluated in the background, in the gaps between
 * requests and up to a bound of objects kept in memory, so the first repository page (whose
 * info carries the issue and patch counts) and the first issue listing are answered from
 * memory instead of evaluating thousands of objects while someone waits. With a cache
 * directory the results are also kept there, so a restart starts warm.
 */
import { isPublicSummary, type NodeHome } from '@forge-httpd/storage';
import { mayHaveIssuesOrPatches } from '../cobs/cob-ref-dirs.js';
import type { CobStoreService } from '../cobs/cob-store.service.js';
import type { QuietOptions } from '../platform/requests-in-flight.js';
import type { RepositoryAccess } from '../repository-access/repository-access.service.js';

/**
 * Objects evaluated at once in the background: fewer than a listing's 16, so a request that
 * arrives mid-way waits for at most a few evaluations of the background's before its own.
 */
const COBS_AHEAD_CONCURRENCY = 4;

/** Where the pass waits for its turn: once before it begins, before each repository and object. */
export type CobsAheadStep = 'start' | 'repository' | 'object';

/**
 * When each step of the pass goes (for `CobsAheadOptions.pace`): once no request is in flight
 * and none started for `quietMs`, or after `maxWaitMs` anyway.
 *
 * - `repository` and `object`: a short quiet (a visitor's page and the requests it makes next
 *   go first; stepping in every gap between one client's requests cut that client's rate to a
 *   third). An object's step also goes after a short bound (a clone or a slow download in
 *   flight for minutes does not hold the pass); a repository's only in a quiet moment, since its
 *   first step may hold the thread for tens of milliseconds.
 * - `start`: a longer quiet, with a bound after `ready`. Visitors who arrive as a restarted
 *   server comes up (browsers retrying, a monitor) would otherwise meet the pass's first steps,
 *   which are its busiest (a big tracker's refs parsed and indexed at once), and a step in hand
 *   is finished even when a request arrives meanwhile.
 *   The bound keeps a server that is never quiet for half a second (a monitor, a crawler)
 *   evaluating ahead all the same.
 */
export const COBS_AHEAD_PACING: Readonly<Record<CobsAheadStep, QuietOptions>> = {
  start: { quietMs: 500, maxWaitMs: 2_000 },
  repository: { quietMs: 20, maxWaitMs: Number.POSITIVE_INFINITY },
  object: { quietMs: 20, maxWaitMs: 250 },
};

/** What a background pass did. */
export interface CobsAheadReport {
  /** Public repositories looked at. */
  readonly repositories: number;
  /** Of those, the ones with issue or patch objects. */
  readonly withObjects: number;
  /** Issue and patch objects now current in memory. */
  readonly objects: number;
  /** Repositories left to their first visitor: their objects would pass `maxObjects`. */
  readonly skipped: number;
  /** False when it stopped early (aborted). */
  readonly complete: boolean;
  /** Wall time of the pass, in ms. */
  readonly ms: number;
}

/** What the pass reads and how it yields. */
export interface CobsAheadOptions {
  readonly home: NodeHome;
  readonly access: RepositoryAccess;
  readonly cobs: Pick<CobStoreService, 'view'>;
  /**
   * Awaited once before the pass begins (`start`), then before each repository and each
   * object, after a turn of the event loop: resolve when it is the background's turn (e.g. no
   * request in flight). A repository's first step
   * can hold the thread for tens of milliseconds (a tracker's ref listing is indexed in one
   * go), an object's a fraction of one.
   */
  readonly pace: (step: CobsAheadStep) => Promise<void>;
  /** Stops the pass (server closing). */
  readonly signal?: AbortSignal;
  /**
   * Objects the pass keeps in memory at most (evaluations are kept for the server's lifetime):
   * a repository that would pass it is left to its first visitor.
   */
  readonly maxObjects: number;
  /** Told of a repository the pass could not evaluate (it goes on with the next). */
  readonly onError?: (rid: string, error: unknown) => void;
}

/** Evaluates the issues and patches of every public repository; never throws. */
export async function evaluateCobsAhead(options: CobsAheadOptions): Promise<CobsAheadReport> {
  const started = performance.now();
  const { access, cobs, signal } = options;
  // A turn of the event loop first: a request that arrived meanwhile is read (and counted by
  // `pace`) before the next step, even while every step is answered from memory.
  const pace = async (step: CobsAheadStep): Promise<void> => {
    await new Promise((resolve) => setImmediate(resolve));
    await options.pace(step);
  };
  let [repositories, withObjects, objects, skipped] = [0, 0, 0, 0];
  const report = (complete: boolean): CobsAheadReport => ({
    repositories,
    withObjects,
    objects,
    skipped,
    complete,
    ms: Math.round(performance.now() - started),
  });
  try {
    await options.home.storageIndex.ready();
  } catch {
    return report(false);
  }
  await pace('start');
  for (const summary of options.home.storageIndex.list().filter(isPublicSummary)) {
    await pace('repository');
    if (signal?.aborted === true) return report(false);
    repositories++;
    try {
      // Most repositories of a node have no issue or patch: they cost a look at their ref
      // files, not an opening or a git process for a ref listing.
      const gitDir = options.home.storage.gitDirOf(summary.rid);
      if (!mayHaveIssuesOrPatches(options.home.runtime.namespacedRefs, gitDir, options.home.flavour)) continue;
      // The same gate as every request: what is not public (any more) is never read.
      const repository = await access.tryOpenPublic(summary.rid);
      if (repository === null) continue;
      const { snapshot } = await cobs.view(repository);
      if (objects + snapshot.listingObjects() > options.maxObjects) {
        skipped++;
        continue;
      }
      const prepared = await snapshot.prepareListings({ concurrency: COBS_AHEAD_CONCURRENCY, pace: () => pace('object'), signal });
      if (prepared.objects > 0) withObjects++;
      objects += prepared.objects;
      if (!prepared.complete) return report(false);
    } catch (error) {
      options.onError?.(summary.rid, error);
    }
  }
  return report(true);
}
