import { Module } from '@nestjs/common';
import { CobsModule } from '../cobs/cobs.module.js';
import { CommitsModule } from '../commits/commits.module.js';
import { FeedsController } from './feeds.controller.js';
import { FeedsService } from './feeds.service.js';

/** `GET /repos/{rid}/feeds/commits.atom`, `issues.atom`, `patches.atom`. */
@Module({ imports: [CobsModule, CommitsModule], controllers: [FeedsController], providers: [FeedsService] })
export class FeedsModule {}
