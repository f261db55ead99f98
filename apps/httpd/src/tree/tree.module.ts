import { Module } from '@nestjs/common';
import { GitContentModule } from '../git-content/git-content.module.js';
import { TreeController } from './tree.controller.js';
import { TreeService } from './tree.service.js';

/** `/repos/{rid}/tree/{sha}/{path}` and `/repos/{rid}/stats/tree/{sha}`. */
@Module({ imports: [GitContentModule], controllers: [TreeController], providers: [TreeService] })
export class TreeModule {}
