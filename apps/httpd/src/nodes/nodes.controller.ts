import { Controller, Get, Param } from '@nestjs/common';
import type { NodeIdentity, NodeInventory } from '@forge-httpd/api-types';
import type { Nid } from '@forge-httpd/identity';
import { NidPipe } from '../platform/params.pipes.js';
import { NodesService } from './nodes.service.js';

/** docs/api.md 4–5: other nodes. */
@Controller('nodes/:nid')
export class NodesController {
  constructor(private readonly nodes: NodesService) {}

  @Get()
  identity(@Param('nid', NidPipe) nid: Nid): NodeIdentity {
    return this.nodes.identity(nid);
  }

  @Get('inventory')
  inventory(@Param('nid', NidPipe) nid: Nid): NodeInventory {
    return this.nodes.inventory(nid);
  }
}
