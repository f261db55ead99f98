import type { NodeHome } from '@forge-httpd/storage';
import type { Logger } from 'pino';

/** What {@link installReloadSignal} reads. */
export interface ReloadSignalOptions {
  readonly home: Pick<NodeHome, 'reloadWebConfig'>;
  readonly logger: Logger;
}

/**
 * Start-up step: `SIGHUP` re-reads config.json's web section at once (docs/decisions.md);
 * requests also notice a change by its file stamp.
 */
export function installReloadSignal({ home, logger }: ReloadSignalOptions): void {
  process.on('SIGHUP', () => {
    logger.info({ event: 'reload', signal: 'SIGHUP' }, 'SIGHUP: re-reading config.json');
    home.reloadWebConfig();
  });
}
