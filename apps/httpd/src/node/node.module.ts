import { Module } from '@nestjs/common';
import { NodeController } from './node.controller.js';
import { NodeService } from './node.service.js';

/** The local node routes (`/node`, `/node/policies/repos…`). */
@Module({ controllers: [NodeController], providers: [NodeService] })
export class NodeModule {}
