import { Controller, Get, Param } from '@nestjs/common';
import type { Tree, TreeStats } from '@forge-httpd/api-types';
import type { Oid } from '@forge-httpd/storage';
import { CacheControl } from '../platform/cache-control.js';
import { CacheableResponse } from '../response-cache/cacheable-route.js';
import { OidPipe } from '../platform/params.pipes.js';
import { TreeService } from './tree.service.js';

/** docs/api.md 13–14. `/tree/{sha}/` reaches the wildcard route with an empty path (the root). */
@Controller('repos/:rid')
export class TreeController {
  constructor(private readonly trees: TreeService) {}

  @Get('tree/:sha/*')
  @CacheControl('immutable')
  @CacheableResponse()
  getTree(@Param('rid') rid: string, @Param('sha', OidPipe) sha: Oid, @Param('*') path: string): Promise<Tree> {
    return this.trees.getTree(rid, { sha, path });
  }

  @Get('stats/tree/:sha')
  @CacheControl('immutable')
  // `branches` counts the repository's branches: served from the cache while they are unchanged.
  @CacheableResponse({ dependsOnBranches: true })
  getStats(@Param('rid') rid: string, @Param('sha', OidPipe) sha: Oid): Promise<TreeStats> {
    return this.trees.getStats(rid, sha);
  }
}
