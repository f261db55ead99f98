import { Controller, Get, Param } from '@nestjs/common';
import type { Blame, LastCommits } from '@forge-httpd/api-types';
import type { Oid } from '@forge-httpd/storage';
import { CacheControl } from '../platform/cache-control.js';
import { CacheableResponse } from '../response-cache/cacheable-route.js';
import { OidPipe } from '../platform/params.pipes.js';
import { BigPage } from '../platform/page-builds.js';
import { BlameService } from './blame.service.js';

/**
 * docs/api.md "Blame" and "Last commits": commit-addressed, so immutable and kept by the
 * response cache like the commit and tree pages. `/last-commits/{sha}/` reaches the wildcard
 * route with an empty path (the root).
 */
@Controller('repos/:rid')
export class BlameController {
  constructor(private readonly blames: BlameService) {}

  @BigPage()
  @Get('blame/:sha/*')
  @CacheControl('immutable')
  @CacheableResponse()
  getBlame(@Param('rid') rid: string, @Param('sha', OidPipe) sha: Oid, @Param('*') path: string): Promise<Blame> {
    return this.blames.getBlame(rid, { sha, path });
  }

  @Get('last-commits/:sha/*')
  @CacheControl('immutable')
  @CacheableResponse()
  getLastCommits(@Param('rid') rid: string, @Param('sha', OidPipe) sha: Oid, @Param('*') path: string): Promise<LastCommits> {
    return this.blames.getLastCommits(rid, { sha, path });
  }
}
