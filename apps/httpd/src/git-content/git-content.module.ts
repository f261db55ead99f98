import { Module } from '@nestjs/common';
import { GitContentCache } from './git-content-cache.js';
import { GitContentService } from './git-content.service.js';

/** A repository's git content as the commit, tree and blob routes read it: commits, bounded diffs with the blobs they show, per-head memos, and their wire mappers. */
@Module({ providers: [GitContentService, GitContentCache], exports: [GitContentService, GitContentCache] })
export class GitContentModule {}
