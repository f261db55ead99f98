import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { GitServerPool, type GitServerPoolOptions, type NodeHome } from '@forge-httpd/storage';
import { GIT_SERVER_LIMITS, NODE_HOME } from './tokens.js';

/** Bounds of the git server processes (clone, fetch, archive); past the cap 503 + `retry-after`. */
export type GitServerLimits = Pick<GitServerPoolOptions, 'maxProcesses' | 'timeoutMs'>;

/** 4 at once (2-core machines: each pack-objects runs on one thread, below the API's priority); 10 minutes each. */
export const DEFAULT_GIT_SERVER_LIMITS: GitServerLimits = { maxProcesses: 4, timeoutMs: 600_000 };

/** The application's one {@link GitServerPool}; its processes are killed when the app closes. */
@Injectable()
export class GitProcesses implements OnApplicationShutdown {
  private readonly logger = new Logger('forge-httpd');
  readonly pool: GitServerPool;

  constructor(@Inject(GIT_SERVER_LIMITS) limits: GitServerLimits, @Inject(NODE_HOME) home: NodeHome) {
    // The home's runtime: server processes start through the same spawn helper and read the same overlays.
    this.pool = new GitServerPool({ ...limits, processes: home.runtime.processes, log: (message) => this.logger.warn(message) });
  }

  onApplicationShutdown(): void {
    this.pool.close();
  }
}
