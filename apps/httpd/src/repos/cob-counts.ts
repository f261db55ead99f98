import type { IssueCounts, PatchCounts } from '@forge-httpd/api-types';
import type { StoredRepository } from '@forge-httpd/storage';

/** Issue and patch counts by status, for `meta` of repository info (B §4.1). */
export interface CobCounts {
  issues: IssueCounts;
  patches: PatchCounts;
}

/**
 * Counts a repository's issues and patches. Implemented by the COB feature, which provides it
 * under {@link COB_COUNTS} from a global module; until then repository info shows zeros.
 */
export interface CobCountsProvider {
  /** @throws when the COBs cannot be evaluated (the project entry is then left out, B §4.1) */
  countCobs(repository: StoredRepository): Promise<CobCounts>;
}

/** DI token of the {@link CobCountsProvider}. */
export const COB_COUNTS = Symbol('COB_COUNTS');

/** The counts used when no provider is registered. */
export const ZERO_COB_COUNTS: CobCountsProvider = {
  countCobs: () =>
    Promise.resolve({
      issues: { open: 0, closed: 0 },
      patches: { open: 0, draft: 0, archived: 0, merged: 0 },
    }),
};
