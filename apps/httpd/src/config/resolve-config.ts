import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CommandLineOptions } from './command-line.js';
import { DEFAULT_LISTEN, parseListenAddress } from './listen-address.js';
import type { Flavour } from '@forge-httpd/storage';
import { type HomeSource, ServerConfig } from './server-config.js';

/** Inputs of {@link resolveServerConfig}; everything the process would read globally. */
export interface ConfigSources {
  options: CommandLineOptions;
  env: Readonly<Record<string, string | undefined>>;
  /** The user's home directory (for `~/.radicle`). */
  userHome: string;
  cwd: string;
  version: string;
  /** Generates (once) and returns the demo home for a flavour; called only when no home is set. */
  ensureDemoHome: (flavour: Flavour) => Promise<string>;
}

/**
 * Resolves flags, environment and defaults into one validated {@link ServerConfig}
 * (behaviour.md Part A "Protocol flavour", B §7.2–7.3): home = `--home`, else `FORGE_HOME`,
 * else `RAD_HOME` and then `~/.radicle` when it holds a config.json (radicle flavour only), else the
 * generated demo home; socket = `RAD_SOCKET` or `<home>/node/control.sock`; listen =
 * `--listen`, else `FORGE_LISTEN`, else 127.0.0.1:8080.
 * @throws UsageError for an invalid flavour or listen address
 */
export async function resolveServerConfig(sources: ConfigSources): Promise<ServerConfig> {
  const { options, env, cwd } = sources;
  const flavour = options.flavour ?? 'forge';
  const listen = parseListenAddress(options.listen ?? nonEmpty(env['FORGE_LISTEN']) ?? DEFAULT_LISTEN, cwd);
  // Validate the flavour before a demo home might be generated for it.
  const probe = ServerConfig.create({
    home: '/',
    homeSource: 'flag',
    flavour,
    socketPath: '/',
    listen,
    version: sources.version,
  });
  const { home, homeSource } = await resolveHome(sources, probe.flavour);
  const socket = nonEmpty(env['RAD_SOCKET']);
  return ServerConfig.create({
    home,
    homeSource,
    flavour,
    socketPath: socket ? resolve(cwd, socket) : join(home, 'node', 'control.sock'),
    listen,
    version: sources.version,
  });
}

async function resolveHome(
  sources: ConfigSources,
  flavour: Flavour,
): Promise<{ home: string; homeSource: HomeSource }> {
  const { options, env, cwd } = sources;
  if (options.home !== undefined) return { home: resolve(cwd, options.home), homeSource: 'flag' };
  const forgeHome = nonEmpty(env['FORGE_HOME']);
  if (forgeHome) return { home: resolve(cwd, forgeHome), homeSource: 'FORGE_HOME' };
  const radHome = flavour === 'radicle' ? nonEmpty(env['RAD_HOME']) : undefined;
  if (radHome) return { home: resolve(cwd, radHome), homeSource: 'RAD_HOME' };
  // `~/.radicle` is Radicle's own default, so only the radicle flavour falls back to it; a
  // forge server without a home serves the demo (the README's `npm start`).
  const defaultHome = join(sources.userHome, '.radicle');
  if (flavour === 'radicle' && existsSync(join(defaultHome, 'config.json'))) {
    return { home: defaultHome, homeSource: 'default' };
  }
  return { home: await sources.ensureDemoHome(flavour), homeSource: 'demo' };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
