import { Injectable } from '@nestjs/common';
import type { StoredRepository } from '@forge-httpd/storage';
import type { IssueCounts, PatchCounts } from '@forge-httpd/api-types';
import { CobStoreService } from './cob-store.service.js';

/** Issue and patch counts by status, for `meta` of repository info. */
export interface CobCounts {
  issues: IssueCounts;
  patches: PatchCounts;
}

/** Issue/patch counts for repository info, from the same evaluation as the listings. */
@Injectable()
export class CobCountsService {
  constructor(private readonly cobs: CobStoreService) {}

  /**
   * Counts by status (docs/radicle-httpd.md §4.1 `meta.issues`, `meta.patches`).
   * @throws when the COBs cannot be evaluated (the project entry is then left out, docs/radicle-httpd.md §4.1)
   */
  async countCobs(repository: StoredRepository): Promise<CobCounts> {
    const { snapshot } = await this.cobs.view(repository);
    const counts = await snapshot.counts();
    return { issues: { ...counts.issues }, patches: { ...counts.patches } };
  }
}
