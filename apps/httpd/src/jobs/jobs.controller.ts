import { Controller, Get, Param } from '@nestjs/common';
import type { Job } from '@forge-httpd/api-types';
import type { Oid } from '@forge-httpd/storage';
import { OidPipe } from '../platform/params.pipes.js';
import { JobsService } from './jobs.service.js';

/** docs/api.md 19. */
@Controller('repos/:rid/jobs')
export class JobsController {
  constructor(private readonly jobs: JobsService) {}

  @Get(':sha')
  list(@Param('rid') rid: string, @Param('sha', OidPipe) sha: Oid): Promise<Job[]> {
    return this.jobs.list(rid, sha);
  }
}
