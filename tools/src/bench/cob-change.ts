/**
 * COB change benchmark (issue 14, "a person browsing never waits"): on a live node issues and
 * patches change all the time, and a node signs its refs again after every change it writes. A
 * copy of the tracker home (10,000 issues and 2,000 patches by default, the cached home of
 * `cob-startup.js`) is served by a fresh server; once its listings are in memory, each round
 * writes one comment as a node does (a signed change, then the author's signed refs again) and
 * times the pages a visitor asks next: the issue listing, the patch listing, the repository
 * page (its issue and patch counts), the commented issue and the peers' branches (`/remotes`).
 *
 * usage (from the repository root, after `npm run build`):
 *   node tools/dist/bench/cob-change.js [--issues 10000] [--patches 2000] [--rounds 8]
 *     [--cache DIR] [--compare-with DIR]
 *
 * With `--compare-with DIR` the server built in checkout DIR runs beside this one on its own
 * copy of the home, the rounds alternating between them (the same comments in the same order).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { commentIssue } from '@forge-httpd/cob/write';
import { keyPairFromSeed, ridDirectoryName } from '@forge-httpd/identity';
import type { Oid } from '@forge-httpd/storage';
import { seedFromLabel } from '@forge-httpd/builder';
import { type BenchHome, buildTrackerHome, ensureBenchHome, TRACKER_PEERS } from './bench-homes.js';
import { benchCacheRoot, buildsToMeasure, type ForgeServer, startForge } from './forge-server.js';
import { runChecked, sleep } from './processes.js';
import { timeGet, upperMedian } from './timed-get.js';

const { values } = parseArgs({
  options: {
    issues: { type: 'string', default: '10000' },
    patches: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '8' },
    cache: { type: 'string' },
    'compare-with': { type: 'string' },
  },
});
const rounds = Number(values.rounds);

/** Pages timed after each comment, by their column name. */
const PAGES = ['/issues', '/patches', 'repository', 'the issue', '/remotes'] as const;
type Page = (typeof PAGES)[number];

/** Past the settle window of a just-written ref file (storage's SETTLE_MS is 100 ms). */
const AFTER_WRITE_MS = 150;

interface Served {
  readonly name: string;
  readonly server: ForgeServer;
  readonly home: string;
  readonly times: Map<Page, number[]>;
}

const tracker = await ensureBenchHome(path.join(benchCacheRoot(values.cache), `tracker-${values.issues}-${values.patches}`), (dir) =>
  buildTrackerHome(dir, { issues: Number(values.issues), patches: Number(values.patches) }),
);
const scratch = await mkdtemp(path.join(tmpdir(), 'forge-cob-change-'));
const served: Served[] = [];
try {
  for (const [i, build] of buildsToMeasure(values['compare-with']).entries()) {
    // Each server gets its own copy: the rounds write to it.
    const home = path.join(scratch, `home-${i}`);
    await runChecked('cp', ['-a', '--', tracker.home, home]);
    const server = await startForge(home, { waitForStartup: true, root: build.root, env: { XDG_CACHE_HOME: path.join(scratch, `xdg-${i}`) } });
    served.push({ name: build.label, server, home, times: new Map(PAGES.map((page) => [page, []])) });
    // Every issue and patch evaluated, the listings kept: a server that has been up a while.
    for (const page of ['', '/issues', '/patches', '/remotes']) await timeGet(`${server.baseUrl}/api/v1/repos/${tracker.cobRid}${page}`);
  }
  for (let round = 0; round < rounds; round++) {
    for (const target of served) {
      const issue = await writeComment(target.home, tracker, round);
      await sleep(AFTER_WRITE_MS);
      const repo = `${target.server.baseUrl}/api/v1/repos/${tracker.cobRid}`;
      const urls: Record<Page, string> = {
        '/issues': `${repo}/issues`,
        '/patches': `${repo}/patches`,
        repository: repo,
        'the issue': `${repo}/issues/${issue}`,
        '/remotes': `${repo}/remotes`,
      };
      for (const page of PAGES) target.times.get(page)?.push((await timeGet(urls[page], 1)).ms);
    }
    console.log(
      `[cob-change] round ${round + 1}/${rounds}: ${served.map((s) => `${s.name} ${PAGES.map((p) => s.times.get(p)?.at(-1)).join(' / ')} ms`).join('; ')}`,
    );
  }
} finally {
  await Promise.all(served.map(({ server }) => server.stop()));
  await rm(scratch, { recursive: true, force: true });
}
printTable();

/**
 * Writes round `round`'s comment into the copy at `home` as a peer of the tracker does (the
 * change signed, then the author's refs signed again); returns the commented issue.
 */
async function writeComment(home: string, bench: BenchHome, round: number): Promise<Oid> {
  const alias = TRACKER_PEERS[round % TRACKER_PEERS.length] as string;
  const issue = bench.issueIds[round % bench.issueIds.length] as Oid;
  const gitDir = path.join(home, 'storage', ridDirectoryName(bench.cobRid));
  const keyPair = keyPairFromSeed(seedFromLabel(`bench-${alias}`));
  const time = 1_800_000_000 + round;
  await commentIssue({ gitDir, keyPair, alias, time, flavour: 'forge' }, { issue, body: `Still seen in round ${round}.` });
  return issue;
}

function printTable(): void {
  console.log(`\n## After one comment (signed change, refs signed again): ${values.issues} issues, ${values.patches} patches; ${rounds} rounds\n`);
  console.log(`| build | ${PAGES.map((page) => `${page} median / max ms`).join(' | ')} |`);
  console.log(`|---|${PAGES.map(() => '---:').join('|')}|`);
  for (const { name, times } of served) {
    const cells = PAGES.map((page) => {
      const list = times.get(page) ?? [];
      return `${upperMedian(list)} / ${Math.max(0, ...list)}`;
    });
    console.log(`| ${name} | ${cells.join(' | ')} |`);
  }
}
