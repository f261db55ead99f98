import { Global, Module } from '@nestjs/common';
import { COB_COUNTS } from '../repos/cob-counts.js';
import { CobCountsService } from './cob-counts.service.js';
import { CobEvaluations } from './cob-evaluations.js';
import { CobRejectionLog } from './cob-rejection-log.js';
import { CobStoreService } from './cob-store.service.js';
import { IssuesController } from './issues.controller.js';
import { IssuesService } from './issues.service.js';

/**
 * Issue routes, plus the per-repository COB store shared with patches and jobs and the real
 * {@link COB_COUNTS} for repository info (global so those modules need no import).
 */
@Global()
@Module({
  controllers: [IssuesController],
  providers: [CobStoreService, CobCountsService, CobRejectionLog, CobEvaluations, IssuesService, { provide: COB_COUNTS, useExisting: CobCountsService }],
  exports: [CobStoreService, CobRejectionLog, CobEvaluations, COB_COUNTS],
})
export class IssuesModule {}
