import { Injectable } from '@nestjs/common';
import type { StoredRepository } from '@forge-httpd/storage';
import type { CobCounts } from '@forge-httpd/cob';
import { CobStoreService } from './cob-store.service.js';

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
    return snapshot.counts();
  }
}
