import { Module } from '@nestjs/common';
import { GitContentModule } from '../git-content/git-content.module.js';
import { BlameController } from './blame.controller.js';
import { BlameService } from './blame.service.js';

/** `/repos/{rid}/blame/{sha}/{path}` and `/repos/{rid}/last-commits/{sha}/{path}`. */
@Module({ imports: [GitContentModule], controllers: [BlameController], providers: [BlameService] })
export class BlameModule {}
