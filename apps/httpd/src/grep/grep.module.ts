import { Module } from '@nestjs/common';
import { GitContentModule } from '../git-content/git-content.module.js';
import { GrepController } from './grep.controller.js';
import { GrepService } from './grep.service.js';

/** `/repos/{rid}/grep/{sha}`. */
@Module({ imports: [GitContentModule], controllers: [GrepController], providers: [GrepService] })
export class GrepModule {}
