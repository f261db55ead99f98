import { Module } from '@nestjs/common';
import { BrowseModule } from '../browse/browse.module.js';
import { CommitsController } from './commits.controller.js';
import { CommitsService } from './commits.service.js';

/** `/repos/{rid}/commits`, `/commits/{sha}`, `/diff/{base}/{oid}`, `/activity`. */
@Module({ imports: [BrowseModule], controllers: [CommitsController], providers: [CommitsService] })
export class CommitsModule {}
