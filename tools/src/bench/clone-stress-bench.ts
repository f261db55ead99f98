/**
 * Clones under load: failed and corrupt clones per 1,000 while busy loops hold every core.
 * Each build serves the demo home from `--servers` fresh servers in turn; each server's first
 * request is a clone (as when a CI farm or a mirror arrives at a server that just started),
 * then clones of every kind follow at `--concurrency`: protocol v2 and v0, shallow
 * (`--depth 1`), partial (`--filter=blob:none`) and a fetch of the head by commit id. A clone
 * counts as failed when git exits non-zero, as corrupt when git succeeded but `git fsck
 * --strict` fails or the head is not the repository's. Must be 0 and 0. With
 * `--compare-with DIR` the built server of another checkout runs the same, in turns.
 *
 * usage (from the repository root, after `npm run build`):
 *   node tools/dist/bench/clone-stress-bench.js [--clones 1000] [--servers 10] [--concurrency 4]
 *     [--busy 3] [--repo acme-web] [--compare-with DIR] [--cache DIR]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildDemoHome, repositoryByName } from '@forge-httpd/builder';
import { benchCacheRoot, buildsToMeasure, startForge } from './forge-server.js';
import { runCommand } from './processes.js';

const { values } = parseArgs({
  options: {
    clones: { type: 'string', default: '1000' },
    servers: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '4' },
    busy: { type: 'string', default: '3' },
    repo: { type: 'string', default: 'acme-web' },
    'compare-with': { type: 'string' },
    cache: { type: 'string' },
  },
});
const clones = Number(values.clones);
const servers = Number(values.servers);
const concurrency = Number(values.concurrency);
const busyLoops = Number(values.busy);

/** The kinds of clone a mirror or a CI farm runs, in turn. */
const KINDS = ['v2', 'v0', 'shallow', 'partial', 'by-id'] as const;
type Kind = (typeof KINDS)[number];

interface Tally {
  done: number;
  failed: number;
  corrupt: number;
  readonly failures: string[];
}

const gitEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
const git = (args: readonly string[], cwd?: string) => runCommand('git', args, { env: gitEnv, cwd });

/** One clone of `kind` into `dir`; its outcome added to `tally`. */
async function cloneOnce(kind: Kind, url: string, head: string, dir: string, tally: Tally): Promise<void> {
  const cloned =
    kind === 'by-id'
      ? await git(['init', '--quiet', dir]).then(() => git(['-C', dir, '-c', 'protocol.version=2', 'fetch', '--quiet', url, head]))
      : await git([
          ...(kind === 'v0' ? ['-c', 'protocol.version=0'] : ['-c', 'protocol.version=2']),
          'clone',
          '--quiet',
          '--bare',
          ...(kind === 'shallow' ? ['--depth', '1'] : []),
          ...(kind === 'partial' ? ['--filter=blob:none'] : []),
          url,
          dir,
        ]);
  tally.done += 1;
  if (cloned.code !== 0) {
    tally.failed += 1;
    tally.failures.push(`${kind}: ${cloned.stderr.trim().split('\n').pop() ?? ''}`);
    return;
  }
  const got = await git(['-C', dir, 'rev-parse', kind === 'by-id' ? 'FETCH_HEAD' : 'HEAD']);
  const fsck = await git(['-C', dir, 'fsck', '--strict', '--no-progress', '--connectivity-only']);
  if (got.stdout.toString().trim() !== head || fsck.code !== 0) {
    tally.corrupt += 1;
    tally.failures.push(`${kind}: corrupt (${got.stdout.toString().trim()} ${fsck.stderr.trim().slice(0, 200)})`);
  }
}

async function measureBuild(root: string, home: string, rid: string, head: string, scratch: string): Promise<Tally> {
  const tally: Tally = { done: 0, failed: 0, corrupt: 0, failures: [] };
  const perServer = Math.ceil(clones / servers);
  let sequence = 0;
  for (let round = 0; round < servers && tally.done < clones; round += 1) {
    const busy: ChildProcess[] = Array.from({ length: busyLoops }, () => spawn('sh', ['-c', 'while :; do :; done'], { stdio: 'ignore' }));
    try {
      const server = await startForge(home, { root, portOnly: true });
      try {
        const url = `${server.baseUrl}/${rid}.git`;
        const next = async (): Promise<void> => {
          const index = (sequence += 1);
          const dir = path.join(scratch, `clone-${index}`);
          await cloneOnce(KINDS[index % KINDS.length] as Kind, url, head, dir, tally);
          await rm(dir, { recursive: true, force: true });
        };
        // The server's first request.
        await next();
        let left = Math.min(perServer, clones - tally.done + 1) - 1;
        const worker = async (): Promise<void> => {
          while (left > 0) {
            left -= 1;
            await next();
          }
        };
        await Promise.all(Array.from({ length: concurrency }, worker));
      } finally {
        await server.stop();
      }
    } finally {
      for (const child of busy) child.kill('SIGKILL');
    }
  }
  return tally;
}

async function main(): Promise<void> {
  const cache = benchCacheRoot(values.cache);
  const home = path.join(cache, 'clone-stress-demo-home');
  const built = existsSync(path.join(home, 'config.json')) ? null : await buildDemoHome(home);
  const rid = built !== null ? repositoryByName(built, values.repo).rid : await ridOf(home, values.repo);
  const repoDir = path.join(home, 'storage', rid.replace(/^rad:/, ''));
  const head = (await git(['--git-dir', repoDir, 'rev-parse', 'HEAD'])).stdout.toString().trim();
  const scratch = await mkdtemp(path.join(tmpdir(), 'forge-clone-stress-'));
  try {
    console.log(`# Clones under load (${new Date().toISOString()}, node ${process.version})`);
    console.log(
      `${clones} clones of ${values.repo} per build over ${servers} fresh servers (first request a clone), c=${concurrency}, ${busyLoops} busy loops; kinds: ${KINDS.join(', ')}\n`,
    );
    console.log('| build | clones | failed | corrupt | failed or corrupt per 1,000 | wall s |');
    console.log('|---|---:|---:|---:|---:|---:|');
    for (const build of buildsToMeasure(values['compare-with'])) {
      const started = performance.now();
      const tally = await measureBuild(build.root, home, rid, head, scratch);
      const perThousand = ((tally.failed + tally.corrupt) * 1000) / Math.max(1, tally.done);
      console.log(
        `| ${build.label} | ${tally.done} | ${tally.failed} | ${tally.corrupt} | ${perThousand.toFixed(1)} | ${((performance.now() - started) / 1000).toFixed(0)} |`,
      );
      for (const failure of [...new Set(tally.failures)].slice(0, 5)) console.log(`  - ${failure}`);
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The RID of the repository named `name` in an existing demo home, from its API. */
async function ridOf(home: string, name: string): Promise<string> {
  const server = await startForge(home);
  try {
    const response = await fetch(`${server.baseUrl}/api/v1/repos?show=all`);
    const repos = (await response.json()) as Array<{ rid: string; payloads: Record<string, { data: { name: string } }> }>;
    const found = repos.find((repo) => Object.values(repo.payloads).some((payload) => payload.data.name === name));
    if (found === undefined) throw new Error(`no repository named ${name} in ${home}`);
    return found.rid;
  } finally {
    await server.stop();
  }
}

await main();
