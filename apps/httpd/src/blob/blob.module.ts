import { Module } from '@nestjs/common';
import { BrowseModule } from '../browse/browse.module.js';
import { BlobController } from './blob.controller.js';
import { BlobService } from './blob.service.js';

/** `/repos/{rid}/blob/{sha}/{path}` and `/repos/{rid}/readme/{sha}`. */
@Module({ imports: [BrowseModule], controllers: [BlobController], providers: [BlobService] })
export class BlobModule {}
