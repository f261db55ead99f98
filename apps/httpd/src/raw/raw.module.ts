import { Module } from '@nestjs/common';
import { GitContentModule } from '../git-content/git-content.module.js';
import { ArchiveService } from './archive.service.js';
import { RawController } from './raw.controller.js';
import { RawService } from './raw.service.js';

/** `/raw/{rid}/…`: raw files, blobs by id and archives. */
@Module({ imports: [GitContentModule], controllers: [RawController], providers: [RawService, ArchiveService] })
export class RawModule {}
