import { Module } from '@nestjs/common';
import { ReposModule } from '../repos/repos.module.js';
import { DelegatesController } from './delegates.controller.js';
import { DelegatesService } from './delegates.service.js';

/** The `/delegates/{did}/repos` route. */
@Module({ imports: [ReposModule], controllers: [DelegatesController], providers: [DelegatesService] })
export class DelegatesModule {}
