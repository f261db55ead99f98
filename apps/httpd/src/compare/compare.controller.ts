import { Controller, Get, Param } from '@nestjs/common';
import type { CompareResponse } from '@forge-httpd/api-types';
import type { FastifyRequest } from 'fastify';
import { CacheControl } from '../platform/cache-control.js';
import { BigPage } from '../platform/page-builds.js';
import { CompareService, isCommitRange, parseCompareRange } from './compare.service.js';

/**
 * Addressed by two commit ids the answer never changes; naming a branch or tag it follows the
 * ref and is revalidated like `/repos/{rid}` (no Cache-Control; its ETag is the body's hash, which
 * holds the resolved `base` and `head`, so it changes when a named ref moves).
 */
function compareCache(request: FastifyRequest): 'immutable' | null {
  const range = (request.params as Record<string, string | undefined>)['range'] ?? '';
  try {
    return isCommitRange(parseCompareRange(range)) ? 'immutable' : null;
  } catch {
    return null;
  }
}

/** Two commits compared (docs/api.md "Beyond radicle-httpd"). */
@Controller('repos/:rid')
export class CompareController {
  constructor(private readonly compare: CompareService) {}

  @BigPage()
  @Get('compare/:range')
  @CacheControl(compareCache)
  getCompare(@Param('rid') rid: string, @Param('range') range: string): Promise<CompareResponse> {
    return this.compare.compare(rid, parseCompareRange(range));
  }
}
