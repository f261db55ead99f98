import { Inject, Injectable } from '@nestjs/common';
import type { NodeHome, StoredRepository } from '@forge-httpd/storage';
import type { CobCounts } from '@forge-httpd/cob';
import { mayHaveIssuesOrPatches } from './cob-ref-dirs.js';
import { CobStoreService } from './cob-store.service.js';
import { NODE_HOME } from '../platform/tokens.js';

/** Issue/patch counts for repository info, from the same evaluation as the listings. */
@Injectable()
export class CobCountsService {
  constructor(
    private readonly cobs: CobStoreService,
    @Inject(NODE_HOME) private readonly home: NodeHome,
  ) {}

  /**
   * Counts by status (docs/radicle-httpd.md §4.1 `meta.issues`, `meta.patches`).
   * @throws when the COBs cannot be evaluated (the project entry is then left out, docs/radicle-httpd.md §4.1)
   */
  async countCobs(repository: StoredRepository): Promise<CobCounts> {
    // Most repositories of a node have no issue or patch, which their ref files show: each
    // listed repository info of a fresh server started a `for-each-ref` of every namespaced ref.
    if (!mayHaveIssuesOrPatches(this.home.runtime.namespacedRefs, repository.git.gitDir, repository.flavour)) return noCobs();
    const { snapshot } = await this.cobs.view(repository);
    return snapshot.counts();
  }
}

/** What an evaluation counts when there is no issue and no patch. */
function noCobs(): CobCounts {
  return { issues: { open: 0, closed: 0 }, patches: { open: 0, draft: 0, archived: 0, merged: 0 } };
}
