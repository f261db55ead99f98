/**
 * Canary for crossed output between git processes: two public repositories and a private one,
 * each holding marker text no other holds, read at once through every route that carries a
 * git process's output (clones over both protocol versions, a peer namespace, raw files,
 * archives, blob, tree and commit pages) while the CPU is saturated and the spawn helper is
 * killed mid-way. Every answer is either exactly the answer given on an idle server or a
 * visible failure, and no answer holds another repository's marker.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BuiltHome, buildNodeHome, repositoryByName } from '@forge-httpd/builder';
import { childProcesses, eventually, startBusyLoops } from './support/faults.js';
import { makeTempDir, removeTempDir, runGitClient, startTestServer, type TestServer } from './support/index.js';

const T = 1_700_000_000;
const NAMES = ['alpha', 'beta', 'hidden'] as const;
type Name = (typeof NAMES)[number];
/** Marker text per repository: random, so that no fixture or code can hold it by chance. */
const MARKERS: Record<Name, string> = Object.fromEntries(NAMES.map((name) => [name, `${name}-marker-${randomBytes(12).toString('hex')}`])) as Record<
  Name,
  string
>;
const COMMITS = 3;

/** A source repository whose every commit's files hold its marker (enough to span many chunks). */
function writeSource(dir: string, name: Name): void {
  const work = join(dir, `${name}-work`);
  mkdirSync(join(work, 'src'), { recursive: true });
  const identity = { GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: `${name}@example.org`, GIT_COMMITTER_NAME: name, GIT_COMMITTER_EMAIL: `${name}@example.org` };
  const git = (args: readonly string[], extra: Record<string, string> = {}): void => {
    execFileSync('git', ['-C', work, ...args], { env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', ...identity, ...extra } });
  };
  git(['init', '--quiet', '--initial-branch=master']);
  for (let commit = 0; commit < COMMITS; commit += 1) {
    writeFileSync(join(work, 'marker.txt'), `${MARKERS[name]} ${commit}\n`.repeat(3000));
    // Named by the marker too: listings and commit pages carry it.
    writeFileSync(join(work, 'src', `part-${commit}-${MARKERS[name]}.txt`), `${MARKERS[name]} part ${commit}\n`.repeat(200));
    git(['add', '--all']);
    const date = `${T + commit * 60} +0000`;
    git(['commit', '--quiet', '-m', `${name} commit ${commit}`], { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
  }
}

/** Every file below `dir` (a clone's work tree, without `.git`), concatenated. */
function workTreeText(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !join(entry.parentPath, entry.name).includes('/.git'))
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'latin1'))
    .join('');
}

/** The markers of other repositories that `bytes` holds. */
function foreignMarkers(bytes: Buffer | string, own: Name): Name[] {
  const text = typeof bytes === 'string' ? bytes : bytes.toString('latin1');
  return NAMES.filter((name) => name !== own && text.includes(MARKERS[name]));
}

/** One read: its own repository, and how to do it; resolves to the answer's bytes, or throws (a visible failure). */
interface Read {
  readonly repo: Name;
  readonly label: string;
  run(): Promise<{ status: number; bytes: Buffer }>;
}

/** A response read whole; a body cut by the server (reset, unterminated chunks) throws. */
async function fetchWhole(url: string): Promise<{ status: number; bytes: Buffer }> {
  const response = await fetch(url);
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
}

let dir: string;
let built: BuiltHome;
let server: TestServer;
let ids: Record<Name, string[]>;
let clones = 0;

beforeAll(async () => {
  dir = await makeTempDir();
  for (const name of NAMES) writeSource(dir, name);
  built = await buildNodeHome({
    home: join(dir, 'home'),
    seed: 'c7'.repeat(32),
    alias: 'seed',
    time: T,
    repos: NAMES.map((name) => ({
      name,
      private: name === 'hidden',
      history: { kind: 'import' as const, from: join(dir, `${name}-work`, '.git'), sourceRef: 'refs/heads/master' },
    })),
  });
  ids = Object.fromEntries(
    NAMES.map((name) => [
      name,
      execFileSync('git', ['-C', join(dir, `${name}-work`), 'rev-list', '--reverse', 'HEAD'], { encoding: 'utf8' })
        .trim()
        .split('\n'),
    ]),
  ) as Record<Name, string[]>;
  // A cache directory with commit-graphs for every repository: each repository's git then runs
  // with its own object directories in its environment.
  server = await startTestServer({
    home: built.home,
    cacheDir: join(dir, 'cache'),
    commitGraphMinObjects: 1,
    gitServerLimits: { maxProcesses: 64, timeoutMs: 60_000 },
  });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await removeTempDir(dir);
});

const rid = (name: Name): string => repositoryByName(built, name).rid;

/** Every kind of read of `name` at commit `index`; the private repository's must all be 404. */
function readsOf(name: Name, index: number): Read[] {
  const base = server.baseUrl;
  const sha = ids[name][index] as string;
  const api = `${base}/api/v1/repos/${rid(name)}`;
  const clone = (protocol: string, suffix = ''): Read => ({
    repo: name,
    label: `clone v${protocol}${suffix}`,
    run: async () => {
      const target = join(dir, `clone-${(clones += 1)}`);
      const cloning = runGitClient(
        [
          '-c',
          `protocol.version=${protocol}`,
          'clone',
          '--quiet',
          '--branch',
          repositoryByName(built, name).defaultBranch,
          `${base}/${rid(name)}.git${suffix}`,
          target,
        ],
        dir,
      );
      if (name === 'hidden') {
        // Absent to git as to everyone: the clone fails before any of its bytes are sent.
        const stderr = await cloning.then(
          () => 'cloned',
          (error: { stderr?: string }) => error.stderr ?? '',
        );
        return { status: /not found/.test(stderr) ? 404 : 200, bytes: Buffer.from(stderr.replaceAll(target, '<target>')) };
      }
      await cloning;
      await runGitClient(['fsck', '--no-progress', '--strict'], target);
      const head = (await runGitClient(['rev-parse', 'HEAD'], target)).stdout.trim();
      return { status: 200, bytes: Buffer.from(`${head}\n${workTreeText(target)}`, 'latin1') };
    },
  });
  const get = (label: string, url: string): Read => ({ repo: name, label, run: () => fetchWhole(url) });
  return [
    get('raw file', `${base}/raw/${rid(name)}/${sha}/marker.txt`),
    get('archive', `${base}/raw/${rid(name)}/${sha}.tar`),
    get('blob page', `${api}/blob/${sha}/src/part-0-${MARKERS[name]}.txt`),
    get('tree page', `${api}/tree/${sha}/src`),
    get('commit page', `${api}/commits/${sha}`),
    ...(index === COMMITS - 1 ? [clone('2'), clone('0'), clone('2', `/${built.nid}`)] : []),
  ];
}

/** Runs every read at once: each answer, or the failure it threw. */
function runAll(reads: readonly Read[]): Promise<Array<{ read: Read; answer?: { status: number; bytes: Buffer }; error?: unknown }>> {
  return Promise.all(
    reads.map((read) =>
      read.run().then(
        (answer) => ({ read, answer }),
        (error: unknown) => ({ read, error }),
      ),
    ),
  );
}

function allReads(): Read[] {
  return NAMES.flatMap((name) => Array.from({ length: COMMITS }, (_, index) => readsOf(name, index)).flat());
}

describe('git output under load never crosses repositories', () => {
  it('answers every read exactly as on an idle server, or fails visibly, while the CPU is busy and the spawn helper is killed', async () => {
    // The idle answers: what every later answer must equal.
    const reads = allReads();
    const idle = new Map<Read, Buffer>();
    for (const read of reads) {
      const answer = await read.run();
      if (read.repo === 'hidden') expect(answer.status).toBe(404);
      else expect({ label: read.label, status: answer.status }).toEqual({ label: read.label, status: 200 });
      expect({ label: `${read.repo} ${read.label}`, foreign: foreignMarkers(answer.bytes, read.repo) }).toEqual({
        label: `${read.repo} ${read.label}`,
        foreign: [],
      });
      if (read.repo !== 'hidden') expect(answer.bytes.toString('latin1')).toContain(MARKERS[read.repo]);
      idle.set(read, answer.bytes);
    }

    const busy = startBusyLoops(3);
    try {
      const helperBefore = childProcesses(['forge-httpd git spawn helper']);
      expect(helperBefore).toHaveLength(1);
      // Two rounds at once, and the helper killed while they run.
      const rounds = Promise.all([runAll(reads), runAll(reads)]);
      setTimeout(() => process.kill(helperBefore[0] as number, 'SIGKILL'), 300);
      const underLoad = (await rounds).flat();
      await eventually(async () => server.logs.some((line) => line.includes('a new git spawn helper runs')));
      const helperAfter = childProcesses(['forge-httpd git spawn helper']);
      expect(helperAfter).toHaveLength(1);
      expect(helperAfter).not.toEqual(helperBefore);
      // Once the new helper runs, every read answers again, exactly.
      const afterRestart = await runAll(reads);

      let failed = 0;
      for (const { read, answer, error } of [...underLoad, ...afterRestart]) {
        if (answer === undefined) {
          failed += 1;
          expect(error).toBeDefined();
          continue;
        }
        expect({ read: `${read.repo} ${read.label}`, foreign: foreignMarkers(answer.bytes, read.repo) }).toEqual({
          read: `${read.repo} ${read.label}`,
          foreign: [],
        });
        if (answer.status !== 200 && read.repo !== 'hidden') {
          // A refusal before the body (busy, failed process) is visible; it is JSON, never git's bytes.
          failed += 1;
          expect(answer.status).toBeGreaterThanOrEqual(500);
          continue;
        }
        expect({ read: `${read.repo} ${read.label}`, same: answer.bytes.equals(idle.get(read) as Buffer) }).toEqual({
          read: `${read.repo} ${read.label}`,
          same: true,
        });
      }
      // Only the killed helper's processes may fail, and only under load.
      expect(afterRestart.every(({ answer }) => answer !== undefined)).toBe(true);
      expect(failed).toBeLessThan(underLoad.length);
    } finally {
      for (const child of busy) child.kill('SIGKILL');
    }
  }, 240_000);
});
