import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseRid, type Rid } from '@forge-httpd/identity';
import { detectFlavour, type Flavour, type FlavourDetection, isFlavour, isRepositoryAliasName } from '@forge-httpd/storage';
import type { CommandLineOptions } from './command-line.js';
import { demoCacheRoot } from './demo-home.js';
import { DEFAULT_LISTEN, parseListenAddress } from './listen-address.js';
import { type HomeSource, MAX_WORKERS, ServerConfig } from './server-config.js';
import { UsageError } from './usage-error.js';

/** `--flavour` values: a flavour, or `auto` (the default) to read it from the home. */
type RequestedFlavour = Flavour | 'auto';

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
  /** Reads a home's flavour from its repositories (default: the storage library's). */
  detectFlavour?: (home: string) => Promise<FlavourDetection>;
}

/**
 * Resolves flags, environment and defaults into one validated {@link ServerConfig}
 * (README "Command line"; decisions in docs): home = `--home`, else `FORGE_HOME`, else (flavour
 * auto or radicle) `RAD_HOME` and then `~/.radicle` when it holds a config.json, else the
 * generated demo home; flavour = `--flavour`, else what the home's repositories are written in
 * (`auto`), else radicle for a home found through `RAD_HOME`/`~/.radicle` and forge otherwise;
 * socket = `RAD_SOCKET` or `<home>/node/control.sock`; listen = `--listen`, else `FORGE_LISTEN`,
 * else 127.0.0.1:8080; metrics = `--metrics-listen`, else `FORGE_METRICS_LISTEN`, else off;
 * memory budget = `--memory-budget`, else `FORGE_MEMORY_BUDGET`, else 64 MiB; workers =
 * `--workers`, else `FORGE_WORKERS`, else 1.
 * @throws UsageError for an invalid flavour, listen address, memory budget or worker count
 */
export async function resolveServerConfig(sources: ConfigSources): Promise<ServerConfig> {
  const { options, env, cwd } = sources;
  const requested = options.flavour ?? 'auto';
  // Validate the flavour before a demo home might be generated for it.
  if (requested !== 'auto' && !isFlavour(requested)) throw new UsageError('Invalid --flavour: expected auto, forge or radicle');
  const listen = parseListenAddress(options.listen ?? nonEmpty(env['FORGE_LISTEN']) ?? DEFAULT_LISTEN, cwd);
  const metrics = options.metricsListen ?? nonEmpty(env['FORGE_METRICS_LISTEN']);
  const metricsListen = metrics === undefined ? null : parseListenAddress(metrics, cwd, '--metrics-listen');
  // Checked before a demo home might be generated, like the flavour.
  const workers = parseWorkers(options.workers ?? nonEmpty(env['FORGE_WORKERS']));
  const memoryBudgetMiB = parseMemoryBudget(options.memoryBudget ?? nonEmpty(env['FORGE_MEMORY_BUDGET']));
  const aliases = parseAliasFlags(options.aliases ?? []);
  const { home, homeSource } = await resolveHome(sources, requested);
  const { flavour, reason } = await resolveFlavour({ requested, home, homeSource, detect: sources.detectFlavour ?? detectFlavour });
  const socket = nonEmpty(env['RAD_SOCKET']);
  return ServerConfig.create({
    cacheDir: resolveCacheDir(sources, home),
    home,
    homeSource,
    flavour,
    flavourReason: reason,
    socketPath: socket ? resolve(cwd, socket) : join(home, 'node', 'control.sock'),
    listen,
    metricsListen,
    workers,
    memoryBudgetMiB,
    aliases,
    version: sources.version,
  });
}

async function resolveHome(sources: ConfigSources, requested: RequestedFlavour): Promise<{ home: string; homeSource: HomeSource }> {
  const { options, env, cwd } = sources;
  if (options.home !== undefined) return { home: resolve(cwd, options.home), homeSource: 'flag' };
  const forgeHome = nonEmpty(env['FORGE_HOME']);
  if (forgeHome) return { home: resolve(cwd, forgeHome), homeSource: 'FORGE_HOME' };
  // Radicle's own places are looked at unless the forge flavour is forced: a forge server
  // without a home serves the demo.
  const radicleHomes = requested !== 'forge';
  const radHome = radicleHomes ? nonEmpty(env['RAD_HOME']) : undefined;
  if (radHome) return { home: resolve(cwd, radHome), homeSource: 'RAD_HOME' };
  const defaultHome = join(sources.userHome, '.radicle');
  if (radicleHomes && existsSync(join(defaultHome, 'config.json'))) return { home: defaultHome, homeSource: 'default' };
  // The demo is written in the forced flavour, else in forge (ours).
  return { home: await sources.ensureDemoHome(requested === 'radicle' ? 'radicle' : 'forge'), homeSource: 'demo' };
}

async function resolveFlavour(args: {
  requested: RequestedFlavour;
  home: string;
  homeSource: HomeSource;
  detect: (home: string) => Promise<FlavourDetection>;
}): Promise<{ flavour: Flavour; reason: string }> {
  const { requested, homeSource } = args;
  if (requested !== 'auto') return { flavour: requested, reason: `--flavour ${requested}` };
  const detection = await args.detect(args.home);
  if (detection.flavour !== null) return { flavour: detection.flavour, reason: `auto: ${detection.reason}` };
  const radicle = homeSource === 'RAD_HOME' || homeSource === 'default';
  const where = homeSource === 'RAD_HOME' ? 'found through RAD_HOME' : homeSource === 'default' ? 'found at ~/.radicle' : 'not a Radicle location';
  return { flavour: radicle ? 'radicle' : 'forge', reason: `auto: ${detection.reason}; the home was ${where}` };
}

/**
 * `--cache-dir`, else `FORGE_CACHE_DIR`, else one directory per node home (named by a hash of
 * its path) under `${XDG_CACHE_HOME:-~/.cache}/forge-httpd/homes/`; null with `--no-cache-dir`.
 */
function resolveCacheDir(sources: ConfigSources, home: string): string | null {
  const { options, env, cwd } = sources;
  if (options.noCacheDir === true) return null;
  const chosen = options.cacheDir ?? nonEmpty(env['FORGE_CACHE_DIR']);
  if (chosen !== undefined) return resolve(cwd, chosen);
  const homeKey = createHash('sha256').update(home).digest('hex').slice(0, 16);
  return join(demoCacheRoot(env, sources.userHome), 'homes', homeKey);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** MiB from `--memory-budget` text; undefined leaves the default. */
function parseMemoryBudget(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,7}$/.test(text)) throw new UsageError('Invalid --memory-budget: expected a whole number of MiB');
  return Number(text);
}

/**
 * `--alias NAME=RID` flags as a map; a name given twice must name the same RID.
 * @throws UsageError for a malformed pair, name or RID
 */
function parseAliasFlags(flags: readonly string[]): Map<string, Rid> {
  const aliases = new Map<string, Rid>();
  for (const flag of flags) {
    const equals = flag.indexOf('=');
    const name = equals === -1 ? '' : flag.slice(0, equals);
    if (!isRepositoryAliasName(name)) {
      throw new UsageError('Invalid --alias: expected NAME=RID, NAME of 1-64 letters, digits, . _ - (not a RID, not ending in .git, not api, raw or search)');
    }
    let rid: Rid;
    try {
      rid = parseRid(flag.slice(equals + 1));
    } catch {
      throw new UsageError(`Invalid --alias ${name}: expected NAME=RID with a RID (rad:z…)`);
    }
    if ((aliases.get(name) ?? rid) !== rid) throw new UsageError(`Invalid --alias ${name}: given twice for different repositories`);
    aliases.set(name, rid);
  }
  return aliases;
}

/** `--workers` text as a number (1 when not given); ServerConfig checks the range again. */
function parseWorkers(text: string | undefined): number {
  if (text === undefined) return 1;
  const workers = /^\d{1,3}$/.test(text) ? Number(text) : Number.NaN;
  if (!(workers >= 1 && workers <= MAX_WORKERS)) throw new UsageError(`Invalid --workers: expected an integer from 1 to ${MAX_WORKERS}`);
  return workers;
}
