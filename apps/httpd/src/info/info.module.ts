import { Module } from '@nestjs/common';
import { NodeModule } from '../node/node.module.js';
import { InfoController } from './info.controller.js';
import { InfoService } from './info.service.js';

/** The informational routes. */
@Module({ imports: [NodeModule], controllers: [InfoController], providers: [InfoService] })
export class InfoModule {}
