import { Module } from '@nestjs/common';
import { JobsController } from './jobs.controller.js';
import { JobsService } from './jobs.service.js';

/** The `/repos/{rid}/jobs/{sha}` route; the COB store comes from the global issues module. */
@Module({ controllers: [JobsController], providers: [JobsService] })
export class JobsModule {}
