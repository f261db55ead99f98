import { Module } from '@nestjs/common';
import { CobsModule } from '../cobs/cobs.module.js';
import { IssuesController } from './issues.controller.js';
import { IssuesService } from './issues.service.js';

/** Issue routes (`/repos/{rid}/issues…`). */
@Module({ imports: [CobsModule], controllers: [IssuesController], providers: [IssuesService] })
export class IssuesModule {}
