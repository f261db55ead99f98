import { Module } from '@nestjs/common';
import { RemotesController } from './remotes.controller.js';
import { RemotesService } from './remotes.service.js';

/** `/repos/{rid}/remotes` and `/repos/{rid}/remotes/{peer}`. */
@Module({ controllers: [RemotesController], providers: [RemotesService] })
export class RemotesModule {}
