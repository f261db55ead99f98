import type { Logger } from 'pino';
import type { ServerConfig } from '../config/server-config.js';
import { type RunningServer, startServer } from '../server.js';
import { NestLogBridge } from '../telemetry/nest-log-bridge.js';
import { RequestObserver } from '../telemetry/request-observer.js';
import type { MemoryControls } from './memory-controls.js';

/** What {@link startProcessServer} reads. */
export interface StartProcessServerOptions {
  readonly config: ServerConfig;
  readonly logger: Logger;
  /** This process's cluster worker id; undefined when it serves alone. */
  readonly worker: number | undefined;
  readonly memory: MemoryControls;
}

/**
 * Start-up step: opens the node home, builds the app and listens, with Nest's messages,
 * config.json problems, reloads and finished requests going to the process's logger.
 */
export function startProcessServer({ config, logger, worker, memory }: StartProcessServerOptions): Promise<RunningServer> {
  return startServer({
    config,
    logger: new NestLogBridge(logger),
    log: (message) => logger.warn({ event: 'config' }, message),
    requests: new RequestObserver(logger),
    onWebConfigReload: () => logger.info({ event: 'reload' }, 'config.json web settings reloaded'),
    clusterWorker: worker !== undefined,
    heapHeadroom: memory.heapHeadroom,
    youngGeneration: memory.youngGeneration,
    freeMemoryRelease: memory.freeMemoryRelease,
  });
}
