import { type DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR } from '@nestjs/core';
import type { NodeHome } from '@forge-httpd/storage';
import { ServerConfig } from '../config/server-config.js';
import { CacheControlInterceptor } from './cache-control.js';
import { ErrorFilter } from './error.filter.js';
import { RepositoryAccess } from './repository-access.service.js';
import { NODE_HOME } from './tokens.js';

/** What the platform needs from the bootstrap: the validated config and the opened home. */
export interface PlatformOptions {
  config: ServerConfig;
  home: NodeHome;
}

/**
 * Cross-cutting providers, global so feature modules inject them without importing:
 * `ServerConfig`, the `NodeHome` (token {@link NODE_HOME}) and {@link RepositoryAccess};
 * plus the global error filter and Cache-Control interceptor.
 */
@Global()
@Module({})
export class PlatformModule {
  /** The module bound to one config and home. */
  static forRoot(options: PlatformOptions): DynamicModule {
    return {
      module: PlatformModule,
      providers: [
        { provide: ServerConfig, useValue: options.config },
        { provide: NODE_HOME, useValue: options.home },
        RepositoryAccess,
        { provide: APP_FILTER, useClass: ErrorFilter },
        { provide: APP_INTERCEPTOR, useClass: CacheControlInterceptor },
      ],
      exports: [ServerConfig, NODE_HOME, RepositoryAccess],
    };
  }
}
