import type { Flavour } from '@forge-httpd/storage';
import type { Logger } from 'pino';
import { demoCacheRoot, ensureDemoHome } from '../config/demo-home.js';

/** What {@link prepareDemoHome} reads. */
export interface PrepareDemoHomeOptions {
  readonly flavour: Flavour;
  /** The server's version: with the builder's recipe version, it names the home's folder. */
  readonly version: string;
  readonly userHome: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly logger: Logger;
}

/**
 * Start-up step, only with `--demo`: the demo node home of this version and flavour, built the
 * first time and found in the cache folder afterwards.
 * @returns the demo home's path
 */
export async function prepareDemoHome(options: PrepareDemoHomeOptions): Promise<string> {
  const { version, logger } = options;
  // Only the demo needs the builder: loaded here, and its recipe version names the folder.
  const { DEMO_RECIPE_VERSION } = await import('@forge-httpd/builder');
  const cacheRoot = demoCacheRoot(options.env, options.userHome);
  const demoVersion = `${version}-r${DEMO_RECIPE_VERSION}`;
  return ensureDemoHome({ cacheRoot, version: demoVersion, flavour: options.flavour, log: (message) => logger.info({ event: 'demo' }, message) });
}
