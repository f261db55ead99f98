import { Module } from '@nestjs/common';
import { GitContentModule } from '../git-content/git-content.module.js';
import { CompareController } from './compare.controller.js';
import { CompareService } from './compare.service.js';

/** `/repos/{rid}/compare/{base}...{head}`. */
@Module({ imports: [GitContentModule], controllers: [CompareController], providers: [CompareService] })
export class CompareModule {}
