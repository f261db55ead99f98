import { type DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR } from '@nestjs/core';
import type { NodeHome } from '@forge-httpd/storage';
import { ServerConfig } from './config/server-config.js';
import { CacheControlInterceptor } from './platform/cache-control.js';
import { PageBuildsInterceptor, SEND_PRESSURE } from './platform/page-builds.js';
import type { SendStallGuard } from './platform/send-stall-guard.js';
import { ErrorFilter } from './platform/error.filter.js';
import { DEFAULT_GIT_SERVER_LIMITS, GitProcesses, type GitServerLimits } from './platform/git-processes.service.js';
import { HttpCaching } from './response-cache/http-caching.js';
import { RepositoryAccess } from './repository-access/repository-access.service.js';
import { RepositoryAliases } from './repository-access/repository-aliases.js';
import { GIT_SERVER_LIMITS, NODE_HOME, REPOSITORY_PRESENCE } from './platform/tokens.js';
import { NodeFactsMemo } from './node/node-facts.js';
import { DEFAULT_EVENT_STREAM_OPTIONS, EVENT_STREAM_OPTIONS, type EventStreamOptions } from './events/event-stream-options.js';

/** What the platform needs from the bootstrap: the validated config and the opened home. */
export interface GlobalsOptions {
  config: ServerConfig;
  home: NodeHome;
  /** The HTTP caching installed on the Fastify instance (bound here to RepositoryAccess). */
  httpCaching?: HttpCaching;
  /** Bounds of clone/fetch/archive processes (default {@link DEFAULT_GIT_SERVER_LIMITS}). */
  gitServerLimits?: GitServerLimits;
  /** Whether answers waiting for slow clients pass their bound (big pages are refused then). */
  sendGuard?: Pick<SendStallGuard, 'pressed'>;
  /** Bounds and periods of the event streams (default {@link DEFAULT_EVENT_STREAM_OPTIONS}; tests shorten the periods). */
  eventStreams?: Partial<EventStreamOptions>;
}

/**
 * Cross-cutting providers, global so feature modules inject them without importing:
 * `ServerConfig`, the `NodeHome` (token {@link NODE_HOME}), {@link RepositoryAliases}, {@link RepositoryAccess},
 * {@link GitProcesses}, {@link NodeFactsMemo} and,
 * when given, {@link HttpCaching}; plus the global error filter and Cache-Control interceptor.
 */
@Global()
@Module({})
export class GlobalsModule {
  /** The module bound to one config and home. */
  static forRoot(options: GlobalsOptions): DynamicModule {
    const { httpCaching } = options;
    const caching =
      httpCaching === undefined
        ? []
        : [
            {
              provide: HttpCaching,
              // Cache hits check visibility through the same gate as every handler.
              useFactory: (access: RepositoryAccess) => {
                httpCaching.bind(access);
                return httpCaching;
              },
              inject: [RepositoryAccess],
            },
          ];
    return {
      module: GlobalsModule,
      providers: [
        { provide: ServerConfig, useValue: options.config },
        { provide: NODE_HOME, useValue: options.home },
        RepositoryAliases,
        RepositoryAccess,
        { provide: REPOSITORY_PRESENCE, useExisting: RepositoryAccess },
        { provide: GIT_SERVER_LIMITS, useValue: options.gitServerLimits ?? DEFAULT_GIT_SERVER_LIMITS },
        { provide: EVENT_STREAM_OPTIONS, useValue: { ...DEFAULT_EVENT_STREAM_OPTIONS, ...options.eventStreams } },
        GitProcesses,
        // One memo of what the node's databases say, for listings, issue and patch pages and remotes.
        { provide: NodeFactsMemo, useFactory: (home: NodeHome) => new NodeFactsMemo(home), inject: [NODE_HOME] },
        ...caching,
        { provide: APP_FILTER, useClass: ErrorFilter },
        { provide: APP_INTERCEPTOR, useClass: CacheControlInterceptor },
        { provide: SEND_PRESSURE, useValue: options.sendGuard ?? { pressed: false } },
        { provide: APP_INTERCEPTOR, useClass: PageBuildsInterceptor },
      ],
      exports: [
        ServerConfig,
        NODE_HOME,
        RepositoryAliases,
        RepositoryAccess,
        GitProcesses,
        NodeFactsMemo,
        EVENT_STREAM_OPTIONS,
        ...(httpCaching === undefined ? [] : [HttpCaching]),
      ],
    };
  }
}
