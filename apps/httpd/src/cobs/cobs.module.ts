import { Module } from '@nestjs/common';
import { CobCountsService } from './cob-counts.service.js';
import { CobEvaluations } from './cob-evaluations.js';
import { CobRejectionLog } from './cob-rejection-log.js';
import { CobStoreService } from './cob-store.service.js';

/**
 * Collaborative objects of the served repositories: one COB store per repository (evaluated
 * issues, patches and jobs, reused until their refs move), the counts repository info shows, and
 * the log of dropped changes and the evaluation counters for the metrics. Imported by the issue, patch, job and repository features.
 */
@Module({
  providers: [CobStoreService, CobCountsService, CobRejectionLog, CobEvaluations],
  exports: [CobStoreService, CobCountsService, CobRejectionLog, CobEvaluations],
})
export class CobsModule {}
