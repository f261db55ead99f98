import { Controller, Get } from '@nestjs/common';
import type { ApiInfo, ApiV1Info, NodeStats, RootInfo, ServerInfo } from '@forge-httpd/api-types';
import { CacheControl } from '../platform/cache-control.js';
import { InfoService } from './info.service.js';

/**
 * Paths excluded from the `api/v1` prefix, so they are written out in full here
 * (see `UNPREFIXED_ROUTES` in app.factory.ts); `stats` is under the prefix.
 */
export const INFO_PATHS = { root: '/', api: 'api', apiV1: 'api/v1' } as const;

/** `GET /`, `GET /api`, `GET /api/v1`, `GET /api/v1/info`, `GET /api/v1/stats`. */
@Controller()
export class InfoController {
  constructor(private readonly info: InfoService) {}

  @Get(INFO_PATHS.root)
  root(): RootInfo {
    return this.info.root();
  }

  @Get(INFO_PATHS.api)
  api(): ApiInfo {
    return this.info.api();
  }

  @Get(INFO_PATHS.apiV1)
  apiV1(): ApiV1Info {
    return this.info.apiV1();
  }

  @Get('info')
  @CacheControl('short')
  serverInfo(): Promise<ServerInfo> {
    return this.info.serverInfo();
  }

  @Get('stats')
  stats(): NodeStats {
    return this.info.stats();
  }
}
