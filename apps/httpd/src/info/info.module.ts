import { Module } from '@nestjs/common';
import { InfoController } from './info.controller.js';
import { InfoService } from './info.service.js';

/** The informational routes. */
@Module({ controllers: [InfoController], providers: [InfoService] })
export class InfoModule {}
