import { Controller, Get, Param } from '@nestjs/common';
import type { Blob } from '@forge-httpd/api-types';
import type { Oid } from '@forge-httpd/storage';
import { CacheControl } from '../platform/cache-control.js';
import { CacheableResponse } from '../response-cache/cacheable-route.js';
import { OidPipe } from '../platform/params.pipes.js';
import { BlobService } from './blob.service.js';
import { BigPage } from '../platform/page-builds.js';

/** docs/api.md 17–18. Above 4 MiB the platform's filter answers 413 `[]` with `no-cache`. */
@Controller('repos/:rid')
export class BlobController {
  constructor(private readonly blobs: BlobService) {}

  @BigPage()
  @Get('blob/:sha/*')
  @CacheControl('immutable')
  @CacheableResponse()
  getBlob(@Param('rid') rid: string, @Param('sha', OidPipe) sha: Oid, @Param('*') path: string): Promise<Blob> {
    return this.blobs.getBlob(rid, { sha, path });
  }

  @BigPage()
  @Get('readme/:sha')
  @CacheControl('immutable')
  @CacheableResponse()
  getReadme(@Param('rid') rid: string, @Param('sha', OidPipe) sha: Oid): Promise<Blob> {
    return this.blobs.getReadme(rid, sha);
  }
}
