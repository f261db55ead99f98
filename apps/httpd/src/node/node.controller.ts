import { Controller, Get, Param } from '@nestjs/common';
import type { NodeInfo, RepoPolicy, SeedingPolicy } from '@forge-httpd/api-types';
import type { Rid } from '@forge-httpd/identity';
import { CacheControl } from '../platform/cache-control.js';
import { RidPipe } from '../platform/params.pipes.js';
import { NodeService } from './node.service.js';

/** docs/api.md 1–3: the local node. */
@Controller('node')
export class NodeController {
  constructor(private readonly node: NodeService) {}

  @Get()
  @CacheControl('short')
  nodeInfo(): Promise<NodeInfo> {
    return this.node.nodeInfo();
  }

  @Get('policies/repos')
  policies(): RepoPolicy[] {
    return this.node.policies();
  }

  @Get('policies/repos/:rid')
  policy(@Param('rid', RidPipe) rid: Rid): SeedingPolicy {
    return this.node.policy(rid);
  }
}
