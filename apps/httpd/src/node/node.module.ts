import { Module } from '@nestjs/common';
import { NodeController } from './node.controller.js';
import { NodeService } from './node.service.js';

/** The local node routes (`/node`, `/node/policies/repos…`); `/info` reuses the node answer. */
@Module({ controllers: [NodeController], providers: [NodeService], exports: [NodeService] })
export class NodeModule {}
