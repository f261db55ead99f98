import { Module } from '@nestjs/common';
import { CobsModule } from '../cobs/cobs.module.js';
import { PatchesController } from './patches.controller.js';
import { PatchesService } from './patches.service.js';

/** Patch routes (COBs from {@link CobsModule}). */
@Module({ imports: [CobsModule], controllers: [PatchesController], providers: [PatchesService] })
export class PatchesModule {}
