import { Injectable } from '@nestjs/common';
import type { StoredRepository } from '@forge-httpd/storage';
import type { CobCounts, CobCountsProvider } from '../repos/cob-counts.js';
import { CobStoreService } from './cob-store.service.js';

/** Real issue/patch counts for repository info, from the same evaluation as the listings. */
@Injectable()
export class CobCountsService implements CobCountsProvider {
  constructor(private readonly cobs: CobStoreService) {}

  /** Counts by status (B §4.1 `meta.issues`, `meta.patches`). */
  async countCobs(repository: StoredRepository): Promise<CobCounts> {
    const { snapshot } = await this.cobs.view(repository);
    const counts = await snapshot.counts();
    return { issues: { ...counts.issues }, patches: { ...counts.patches } };
  }
}
