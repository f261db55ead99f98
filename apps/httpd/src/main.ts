#!/usr/bin/env node
// forge-httpd command line: parse flags and environment once, then serve (bootstrap only).
import 'reflect-metadata';
import { homedir } from 'node:os';
import { checkGit } from '@forge-httpd/storage';
import { fileURLToPath } from 'node:url';
import { parseCommandLine, USAGE } from './config/command-line.js';
import { demoCacheRoot, demoRecipeFingerprint, ensureDemoHome } from './config/demo-home.js';
import { formatListenAddress } from './config/listen-address.js';
import { resolveServerConfig } from './config/resolve-config.js';
import type { ServerConfig } from './config/server-config.js';
import { readServerVersion } from './config/version.js';

const log = (message: string): void => {
  process.stderr.write(`forge-httpd: ${message}\n`);
};

async function configure(args: readonly string[]): Promise<ServerConfig | null> {
  const version = readServerVersion();
  const commandLine = parseCommandLine(args);
  if (commandLine.action === 'help') {
    process.stdout.write(USAGE);
    return null;
  }
  if (commandLine.action === 'version') {
    process.stdout.write(`forge-httpd ${version}\n`);
    return null;
  }
  // Without git no repository can be read: say so once and stop (README "Faults and fuzzing").
  await checkGit();
  const userHome = homedir();
  return resolveServerConfig({
    options: commandLine.options,
    env: process.env,
    userHome,
    cwd: process.cwd(),
    version,
    ensureDemoHome: async (flavour) => {
      // The demo is written by the builder and the COB write side (workspace siblings of this app).
      const recipe = await demoRecipeFingerprint(
        ['../../../tools/dist/builder/', '../../../libs/cob/dist/'].map((p) => fileURLToPath(new URL(p, import.meta.url))),
      );
      const cacheRoot = demoCacheRoot(process.env, userHome);
      return ensureDemoHome({ cacheRoot, version: `${version}-${recipe}`, flavour, log });
    },
  });
}

async function main(): Promise<void> {
  const config = await configure(process.argv.slice(2));
  if (config === null) return;
  // Loaded only to serve, so --help and --version answer without loading Nest.
  const [{ startServer, SHUTDOWN_GRACE_MS }, { warmUp }] = await Promise.all([import('./server.js'), import('./warm-up/warm-up.js')]);
  const server = await startServer({ config, logger: ['error', 'warn'], log });
  log(`flavour ${config.flavour} (${config.flavourReason})`);
  log(`serving ${config.home} (${config.homeSource}, flavour ${config.flavour}) on ${formatListenAddress(server.address)}/api/v1`);
  // The index build started with the app; the warm-up follows it. Operators (and the
  // benchmark) see when start-up work is done.
  const warming = new AbortController();
  void warmUp(server.address, server.home, warming.signal).then((report) => {
    const repositories = server.home.storageIndex.stats().repositories;
    log(`ready: ${repositories} repositories indexed, ${report.requests.length} warm-up requests, ${Math.round(performance.now())} ms after start`);
  });
  const stop = (): void => {
    warming.abort();
    // The last resort if closing itself hangs (the grace period closes every connection first).
    setTimeout(() => {
      log('shutdown did not finish in time: exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS * 3).unref();
    log('stopping: no new connections, requests in flight may finish');
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // SIGHUP re-reads config.json's web section at once (Part A); requests also notice changes by stat.
  process.on('SIGHUP', () => server.home.reloadWebConfig());
}

main().catch((error: unknown) => {
  if ((error as { code?: unknown }).code === 'USAGE') {
    process.stderr.write(`forge-httpd: ${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  log(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
