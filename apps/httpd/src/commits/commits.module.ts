import { Module } from '@nestjs/common';
import { GitContentModule } from '../git-content/git-content.module.js';
import { CommitsController } from './commits.controller.js';
import { CommitsService } from './commits.service.js';

/** `/repos/{rid}/commits`, `/commits/{sha}`, `/diff/{base}/{oid}`, `/activity`. */
@Module({ imports: [GitContentModule], controllers: [CommitsController], providers: [CommitsService], exports: [CommitsService] })
export class CommitsModule {}
