import { Module } from '@nestjs/common';
import { CobsModule } from '../cobs/cobs.module.js';
import { RepoInfoService } from './repo-info.service.js';
import { ReposController } from './repos.controller.js';
import { ReposService } from './repos.service.js';

/** `/repos`, `/repos/search`, `/repos/{rid}`; exports what the delegate listing reuses. */
@Module({
  imports: [CobsModule],
  controllers: [ReposController],
  providers: [RepoInfoService, ReposService],
  exports: [RepoInfoService, ReposService],
})
export class ReposModule {}
