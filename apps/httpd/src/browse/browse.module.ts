import { Module } from '@nestjs/common';
import { BrowseCache } from './browse-cache.js';
import { BrowseService } from './browse.service.js';

/** Shared plumbing of the git browsing routes (commits, tree, blob): reads, bounds, caches. */
@Module({ providers: [BrowseService, BrowseCache], exports: [BrowseService, BrowseCache] })
export class BrowseModule {}
