import { Module } from '@nestjs/common';
import { DocsController } from './docs.controller.js';
import { DocsService } from './docs.service.js';

/** The API's documentation page and the renderer's files it loads. */
@Module({ controllers: [DocsController], providers: [DocsService] })
export class DocsModule {}
