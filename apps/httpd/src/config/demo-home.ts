import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Flavour } from '@forge-httpd/storage';

/** Marker written last: a demo home without it is incomplete and is regenerated. */
const COMPLETE_MARKER = '.forge-demo-complete';

/** Options of {@link ensureDemoHome}. */
export interface DemoHomeOptions {
  /** Directory holding the generated homes, e.g. `~/.cache/forge-httpd`. */
  cacheRoot: string;
  version: string;
  flavour: Flavour;
  log: (message: string) => void;
}

/** `${XDG_CACHE_HOME:-~/.cache}/forge-httpd`. */
export function demoCacheRoot(env: Readonly<Record<string, string | undefined>>, userHome: string): string {
  const xdg = env['XDG_CACHE_HOME'];
  return join(xdg !== undefined && xdg !== '' ? xdg : join(userHome, '.cache'), 'forge-httpd');
}

/**
 * Returns the demo node home for this version and flavour, generating it with the builder of
 * `@forge-httpd/builder` the first time (or when a previous generation was interrupted). The
 * home is built in a sibling directory and renamed into place, so a crash never leaves a
 * half-written home that looks complete.
 */
export async function ensureDemoHome(options: DemoHomeOptions): Promise<string> {
  const home = join(options.cacheRoot, `demo-${options.version}-${options.flavour}`);
  if (existsSync(join(home, COMPLETE_MARKER))) {
    options.log(`Serving the demo node home ${home}`);
    return home;
  }
  options.log(`Generating the demo node home in ${home} (once)…`);
  const building = `${home}.building-${process.pid}`;
  await mkdir(options.cacheRoot, { recursive: true });
  await rm(building, { recursive: true, force: true });
  // Loaded lazily: the builder (and the COB write side) is only needed for the demo.
  const { buildDemoHome } = await import('@forge-httpd/builder');
  await buildDemoHome(building, { flavour: options.flavour });
  await writeFile(join(building, COMPLETE_MARKER), `${new Date().toISOString()}\n`);
  await rm(home, { recursive: true, force: true });
  await rename(building, home);
  options.log(`Serving the demo node home ${home}`);
  return home;
}
