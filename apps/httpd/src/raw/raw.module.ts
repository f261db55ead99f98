import { Module } from '@nestjs/common';
import { BrowseModule } from '../browse/browse.module.js';
import { ArchiveService } from './archive.service.js';
import { RawController } from './raw.controller.js';
import { RawService } from './raw.service.js';

/** `/raw/{rid}/…`: raw files, blobs by id and archives. */
@Module({ imports: [BrowseModule], controllers: [RawController], providers: [RawService, ArchiveService] })
export class RawModule {}
