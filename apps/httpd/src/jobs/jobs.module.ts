import { Module } from '@nestjs/common';
import { CobsModule } from '../cobs/cobs.module.js';
import { JobsController } from './jobs.controller.js';
import { JobsService } from './jobs.service.js';

/** The `/repos/{rid}/jobs/{sha}` route (COBs from {@link CobsModule}). */
@Module({ imports: [CobsModule], controllers: [JobsController], providers: [JobsService] })
export class JobsModule {}
