import { Module } from '@nestjs/common';
import { NodesController } from './nodes.controller.js';
import { NodesService } from './nodes.service.js';

/** The `/nodes/{nid}` routes. */
@Module({ controllers: [NodesController], providers: [NodesService] })
export class NodesModule {}
