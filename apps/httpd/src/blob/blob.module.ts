import { Module } from '@nestjs/common';
import { GitContentModule } from '../git-content/git-content.module.js';
import { BlobController } from './blob.controller.js';
import { BlobService } from './blob.service.js';

/** `/repos/{rid}/blob/{sha}/{path}` and `/repos/{rid}/readme/{sha}`. */
@Module({ imports: [GitContentModule], controllers: [BlobController], providers: [BlobService] })
export class BlobModule {}
