import { homedir } from 'node:os';
import { checkGit } from '@forge-httpd/storage';
import type { Logger } from 'pino';
import type { CommandLineOptions } from '../config/command-line.js';
import { resolveServerConfig } from '../config/resolve-config.js';
import type { ServerConfig } from '../config/server-config.js';
import { prepareDemoHome } from './prepare-demo-home.js';

/** What {@link configureServer} reads. */
export interface ConfigureServerOptions {
  readonly options: CommandLineOptions;
  readonly logger: Logger;
  readonly version: string;
}

/**
 * Start-up step: the command line's options and the environment become the one validated
 * config of the process (preparing the demo home when it is asked for).
 * @throws Error when git cannot be run, UsageError for a flag or variable that cannot be used
 */
export async function configureServer({ options, logger, version }: ConfigureServerOptions): Promise<ServerConfig> {
  // Without git no repository can be read: say so once and stop (docs/operating.md "Faults and fuzzing").
  await checkGit();
  const userHome = homedir();
  return resolveServerConfig({
    options,
    env: process.env,
    userHome,
    cwd: process.cwd(),
    version,
    ensureDemoHome: (flavour) => prepareDemoHome({ flavour, version, userHome, env: process.env, logger }),
  });
}
