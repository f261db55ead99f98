import { Module } from '@nestjs/common';
import { CobCountsService } from './cob-counts.service.js';
import { CobRejectionLog } from './cob-rejection-log.js';
import { CobStoreService } from './cob-store.service.js';

/**
 * Collaborative objects of the served repositories: one COB store per repository (evaluated
 * issues, patches and jobs, reused until their refs move), the counts repository info shows, and
 * the log of dropped changes. Imported by the issue, patch, job and repository features.
 */
@Module({ providers: [CobStoreService, CobCountsService, CobRejectionLog], exports: [CobStoreService, CobCountsService, CobRejectionLog] })
export class CobsModule {}
