import { type DynamicModule, Module } from '@nestjs/common';
import { DelegatesModule } from './delegates/delegates.module.js';
import { InfoModule } from './info/info.module.js';
import { NodeModule } from './node/node.module.js';
import { NodesModule } from './nodes/nodes.module.js';
import { GlobalsModule, type GlobalsOptions } from './globals.module.js';
import { ReposModule } from './repos/repos.module.js';
import { BlobModule } from './blob/blob.module.js';
import { BlameModule } from './blame/blame.module.js';
import { CommitsModule } from './commits/commits.module.js';
import { RemotesModule } from './remotes/remotes.module.js';
import { TreeModule } from './tree/tree.module.js';
import { IssuesModule } from './issues/issues.module.js';
import { PatchesModule } from './patches/patches.module.js';
import { JobsModule } from './jobs/jobs.module.js';
import { CobLogsModule } from './cob-logs/cob-logs.module.js';
import { RawModule } from './raw/raw.module.js';
import { GitHttpModule } from './git-http/git-http.module.js';
import { OpenApiModule } from './openapi/openapi.module.js';
import { DocsModule } from './docs/docs.module.js';
import { EventsModule } from './events/events.module.js';
import { FeedsModule } from './feeds/feeds.module.js';
import { GrepModule } from './grep/grep.module.js';
import { CompareModule } from './compare/compare.module.js';
// Feature modules: add one import line above and one entry in `imports` below.

/**
 * The application: feature modules are listed statically; {@link AppModule.forRoot} adds the
 * global platform bound to one config and node home.
 */
@Module({
  imports: [
    InfoModule,
    NodeModule,
    NodesModule,
    ReposModule,
    DelegatesModule,
    CommitsModule,
    TreeModule,
    BlobModule,
    BlameModule,
    RemotesModule,
    IssuesModule,
    PatchesModule,
    JobsModule,
    CobLogsModule,
    RawModule,
    GitHttpModule,
    OpenApiModule,
    DocsModule,
    FeedsModule,
    EventsModule,
    GrepModule,
    CompareModule,
  ],
})
export class AppModule {
  /** The application bound to a validated config and an opened node home. */
  static forRoot(options: GlobalsOptions): DynamicModule {
    return { module: AppModule, imports: [GlobalsModule.forRoot(options)] };
  }
}
