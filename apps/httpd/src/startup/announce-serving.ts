import type { Logger } from 'pino';
import { formatListenAddress } from '../config/listen-address.js';
import type { ServerConfig } from '../config/server-config.js';
import type { RunningServer } from '../server.js';

/** What {@link announceServing} reads. */
export interface AnnounceServingOptions {
  readonly config: ServerConfig;
  readonly version: string;
  readonly server: Pick<RunningServer, 'address' | 'metricsAddress'>;
  readonly logger: Logger;
  /** This process's cluster worker id; undefined when it serves alone. */
  readonly worker: number | undefined;
}

/** Start-up step: logs the flavour and the address served (the real port when 0 was asked for). */
export function announceServing({ config, version, server, logger, worker }: AnnounceServingOptions): void {
  const listen = formatListenAddress(server.address);
  // A worker's start is logged once by the primary.
  const startLevel = worker === undefined ? 'info' : 'debug';
  logger[startLevel]({ event: 'start', flavour: config.flavour, reason: config.flavourReason }, `flavour ${config.flavour} (${config.flavourReason})`);
  logger[startLevel](
    {
      event: 'start',
      version,
      home: config.home,
      homeSource: config.homeSource,
      listen,
      metrics: server.metricsAddress && formatListenAddress(server.metricsAddress),
    },
    `serving ${config.home} (${config.homeSource}, flavour ${config.flavour}) on ${listen}/api/v1`,
  );
}
