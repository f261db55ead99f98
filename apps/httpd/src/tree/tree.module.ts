import { Module } from '@nestjs/common';
import { BrowseModule } from '../browse/browse.module.js';
import { TreeController } from './tree.controller.js';
import { TreeService } from './tree.service.js';

/** `/repos/{rid}/tree/{sha}/{path}` and `/repos/{rid}/stats/tree/{sha}`. */
@Module({ imports: [BrowseModule], controllers: [TreeController], providers: [TreeService] })
export class TreeModule {}
