import { Module } from '@nestjs/common';
import { PatchesController } from './patches.controller.js';
import { PatchesService } from './patches.service.js';

/** Patch routes; the COB store comes from the global issues module. */
@Module({ controllers: [PatchesController], providers: [PatchesService] })
export class PatchesModule {}
