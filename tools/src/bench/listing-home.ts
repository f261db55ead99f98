/**
 * The cached listing homes of the listing and search benches: `count` one-commit repositories
 * (`repo-<i>`, described `Benchmark repository <i>`) under `<cache>/listing-<count>/`, built once.
 */
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createNodeHome, seedFromLabel } from '@forge-httpd/builder';
import { writePlainRepositories } from './plain-repositories.js';

export interface ListingHome {
  home: string;
  repos: number;
  firstRid: string;
}

/** The listing home with `count` repositories in `cacheRoot`, generated when missing; `log` reports progress. */
export async function ensureListingHome(cacheRoot: string, count: number, log: (line: string) => void): Promise<ListingHome> {
  const dir = path.join(cacheRoot, `listing-${count}`);
  const manifest = path.join(dir, 'listing-home.json');
  if (existsSync(manifest)) return JSON.parse(await readFile(manifest, 'utf8')) as ListingHome;
  await rm(dir, { recursive: true, force: true });
  const started = Date.now();
  const context = await createNodeHome({
    home: path.join(dir, 'home'),
    seed: seedFromLabel('listing-bench'),
    alias: 'bench',
    time: 1_700_000_000,
    timeStep: 1,
    profile: { seedingPolicy: { policy: 'allow', scope: 'all' } },
  });
  const rids = await writePlainRepositories(context, count, log);
  const home: ListingHome = { home: context.home, repos: count, firstRid: rids[0] ?? '' };
  await writeFile(manifest, JSON.stringify(home, null, 2));
  log(`wrote ${count} repositories in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return home;
}
