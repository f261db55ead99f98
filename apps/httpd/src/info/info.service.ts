import { Inject, Injectable } from '@nestjs/common';
import type { ApiInfo, ApiV1Info, NodeStats, RootInfo, ServerInfo } from '@forge-httpd/api-types';
import type { NodeHome } from '@forge-httpd/storage';
import { ServerConfig } from '../config/server-config.js';
import { NodeService } from '../node/node.service.js';
import { NODE_HOME } from '../platform/tokens.js';
import { toApiInfo, toApiV1Info, toNodeStats, toRootInfo } from './info.mapper.js';

/** The informational routes. */
@Injectable()
export class InfoService {
  constructor(
    private readonly config: ServerConfig,
    private readonly node: NodeService,
    @Inject(NODE_HOME) private readonly home: NodeHome,
  ) {}

  /** `GET /`. */
  root(): RootInfo {
    return toRootInfo(this.config.version);
  }

  /** `GET /api`. */
  api(): ApiInfo {
    return toApiInfo();
  }

  /** `GET /api/v1`. */
  apiV1(): ApiV1Info {
    return toApiV1Info({ version: this.config.version, nid: this.home.nid });
  }

  /** `GET /api/v1/info`: `/node`'s answer and this server's features (search is built in). */
  async serverInfo(): Promise<ServerInfo> {
    return { node: await this.node.nodeInfo(), httpd: { searchAvailable: true } };
  }

  /** `GET /api/v1/stats`: routing rows of the local node. */
  stats(): NodeStats {
    return toNodeStats(this.home.nodeDb.routingCount(this.home.nid));
  }
}
