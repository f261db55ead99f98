/**
 * The benchmark's node homes, written with the node-home builder and the COB write side and
 * cached on disk (a manifest marks a complete build):
 * - `large`: the big generated repository, a repository with many issues and patches, and
 *   enough small repositories to reach the scale's repository count;
 * - `small`: ten repositories, one of them with ten issues and ten patches (a full first page of
 *   each, as the large home's tracker answers) — the baseline of the "within 2×" comparisons.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { commentIssue, type CobWriteContext, createIssue, createPatch, reviewPatch } from '@forge-httpd/cob/write';
import { type Oid } from '@forge-httpd/storage';
import { repackRepository, serializeCommit, serializeTree, writeObject } from '@forge-httpd/storage/write';
import {
  addPeer,
  type BuiltRepository,
  createNodeHome,
  type HomeContext,
  initRepository,
  type Peer,
  resignRefs,
  sampleCommits,
  seedFromLabel,
  setWebProfile,
} from '@forge-httpd/builder';
import { buildGitFixture, type GitSample } from './git-fixture.js';
import { writePlainRepositories } from './plain-repositories.js';
import { runCommand } from './processes.js';
import type { ScaleSpec } from './options.js';

/** Ids of one built home that the workload addresses. */
export interface BenchHome {
  readonly home: string;
  readonly repos: number;
  readonly bigRid: string | null;
  readonly bigGitDir: string | null;
  readonly samples: GitSample[];
  readonly cobRid: string;
  readonly issueIds: string[];
  readonly patchIds: string[];
  /** A small repository, for repo-info comparisons between homes. */
  readonly plainRid: string;
}

const MANIFEST = 'bench-home.json';
/** The peers that write the bench homes' issues and patches besides the local node (seeds `bench-<alias>`). */
export const TRACKER_PEERS: readonly string[] = ['alice', 'bob', 'carol', 'dave'];

/** A home holding one repository imported from a real history (`--history DIR`). */
export interface HistoryHome {
  readonly home: string;
  /** The source repository it was imported from. */
  readonly source: string;
  readonly rid: string;
  readonly gitDir: string;
  /** The default branch (`refs/heads/…`) the import copied from the source's `HEAD`. */
  readonly branch: string;
}

/** Returns the cached home under `dir`, building it first when absent or incomplete. */
export async function ensureBenchHome<T extends { home: string }>(dir: string, build: (dir: string) => Promise<T>): Promise<T> {
  const manifest = path.join(dir, MANIFEST);
  if (existsSync(manifest)) return JSON.parse(await readFile(manifest, 'utf8')) as T;
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const started = Date.now();
  const home = await build(dir);
  await writeFile(manifest, JSON.stringify(home, null, 2));
  console.log(`[bench] built ${dir} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return home;
}

/** The scale's large home under the cache `cacheRoot` (`<scale>/large`), built when absent. */
export function ensureLargeHome(cacheRoot: string, scale: ScaleSpec): Promise<BenchHome> {
  return ensureBenchHome(path.join(cacheRoot, scale.name, 'large'), (dir) => buildLargeHome(dir, scale));
}

/** The scale's large home: big repository, COB-heavy repository, many small repositories. */
async function buildLargeHome(dir: string, scale: ScaleSpec): Promise<BenchHome> {
  const fixture = await buildGitFixture(path.join(dir, 'source', 'big.git'), { commits: scale.commits, files: scale.files, seed: 7 });
  const context = await benchContext(path.join(dir, 'home'));
  const big = await initRepository(context, { name: 'big', defaultBranch: 'master', history: { kind: 'import', from: fixture.gitDir } });
  await repackRepository(big.gitDir);
  const cob = await buildCobRepository(context, { name: 'tracker', issues: scale.issues, patches: scale.patches });
  const plain = await addPlainRepositories(context, Math.max(1, scale.repos - 2));
  return { home: context.home, repos: scale.repos, bigRid: big.rid, bigGitDir: big.gitDir, samples: fixture.samples, ...cob, plainRid: plain };
}

/** Patches of the small home's tracker: one full page (the listings' default page size). */
const SMALL_HOME_PATCHES = 10;

/** Where the small home is kept under a scale's cache: named by its recipe, so an older one is not reused. */
export const SMALL_HOME_DIR = 'small-10-patches';

/** The ten-repository baseline home. */
export async function buildSmallHome(dir: string): Promise<BenchHome> {
  const context = await benchContext(path.join(dir, 'home'));
  // A full first page of each listing, so the comparison is of the same answer on a bigger
  // tracker (with two patches the baseline page was a fifth of the large one's bytes).
  const cob = await buildCobRepository(context, { name: 'tracker', issues: 10, patches: SMALL_HOME_PATCHES });
  const plain = await addPlainRepositories(context, 9);
  return { home: context.home, repos: 10, bigRid: null, bigGitDir: null, samples: [], ...cob, plainRid: plain };
}

/**
 * A home with the tracker repository and one pinned plain repository (the COB start-up
 * benchmark's fixture): the start-up warm-up reads the pinned one, so the tracker's COBs are
 * first evaluated by the benchmark's own requests, after `ready`.
 */
export async function buildTrackerHome(dir: string, spec: { issues: number; patches: number }): Promise<BenchHome> {
  const context = await benchContext(path.join(dir, 'home'));
  const cob = await buildCobRepository(context, { name: 'tracker', ...spec });
  const plain = await addPlainRepositories(context, 1);
  await setWebProfile(context, { web: { pinned: [plain] }, repos: [] });
  return { home: context.home, repos: 2, bigRid: null, bigGitDir: null, samples: [], ...cob, plainRid: plain };
}

/** The name a history is reported under: its directory's, without `.git` (a bare mirror's `repo` takes its parent's). */
export function historyName(source: string): string {
  const base = path.basename(source).replace(/\.git$/, '');
  return base === 'repo' || base === '' ? path.basename(path.dirname(source)) : base;
}

/**
 * A home with one repository whose default branch is the history of `source`'s `HEAD`, imported
 * by the node-home builder as `rad init` would and left as fetched: one pack whose deltas git
 * reused from the source's own packing, no commit-graph, loose refs (a node's storage after a
 * fetch; it never runs `git gc`). The source is only read.
 */
export async function buildHistoryHome(dir: string, source: string): Promise<HistoryHome> {
  const symbolic = await runCommand('git', ['-C', source, 'symbolic-ref', '--short', 'HEAD']);
  const defaultBranch = symbolic.code === 0 && symbolic.stdout.toString('utf8').trim() !== '' ? symbolic.stdout.toString('utf8').trim() : 'master';
  const context = await benchContext(path.join(dir, 'home'));
  const name = historyName(source);
  const repo = await initRepository(context, { name, defaultBranch, history: { kind: 'import', from: source, sourceRef: 'HEAD' } });
  return { home: context.home, source, rid: repo.rid, gitDir: repo.gitDir, branch: `refs/heads/${defaultBranch}` };
}

async function benchContext(home: string): Promise<HomeContext> {
  const context = await createNodeHome({
    home,
    seed: seedFromLabel('bench-seed'),
    alias: 'bench',
    time: 1_700_000_000,
    timeStep: 1,
    profile: { seedingPolicy: { policy: 'allow', scope: 'all' } },
  });
  for (const alias of TRACKER_PEERS) addPeer(context, { alias, seed: seedFromLabel(`bench-${alias}`) });
  return context;
}

/** Writes `count` one-commit repositories named `repo-00000`…; returns the first one's RID. */
async function addPlainRepositories(context: HomeContext, count: number): Promise<string> {
  const rids = await writePlainRepositories(context, count, (line) => console.log(`[bench] ${line} small repositories`));
  return rids[0] ?? '';
}

/** A repository with `issues` issues (each with a comment) and `patches` patches (each reviewed). */
async function buildCobRepository(
  context: HomeContext,
  spec: { name: string; issues: number; patches: number },
): Promise<{ cobRid: string; issueIds: string[]; patchIds: string[] }> {
  const commits = sampleCommits({ project: spec.name, authors: [{ name: 'Bench', email: 'bench@example.org' }], start: 1_650_000_000 });
  const repo = await initRepository(context, { name: spec.name, defaultBranch: 'main', history: { kind: 'generated', commits } });
  const peers = [context.local, ...TRACKER_PEERS.map((alias) => context.peers.get(alias) as Peer)];
  const as = (i: number): CobWriteContext => writeContext(context, repo, peers[i % peers.length] as Peer);
  const issueIds: string[] = [];
  for (let i = 0; i < spec.issues; i++) {
    // Only delegates may label: the local node (every peers.length-th writer) adds the labels.
    const labels = i % peers.length === 0 ? ['bug'] : [];
    const issue = await createIssue(as(i), { title: `Issue ${i}: something is off`, description: `Steps to reproduce issue ${i}.`, labels });
    // The tips are known, so the writer lists no refs (listing is O(refs) per write).
    await commentIssue(as(i + 1), { issue, body: `Confirmed (${i}).`, tips: [issue] });
    issueIds.push(issue);
    if ((i + 1) % 1000 === 0) console.log(`[bench] ${i + 1}/${spec.issues} issues`);
  }
  const patchIds: string[] = [];
  for (let i = 0; i < spec.patches; i++) {
    const oid = await writePatchCommit(repo, i);
    const patch = await createPatch(as(i), { title: `Patch ${i}`, description: `Change ${i}.`, base: repo.head, oid });
    await reviewPatch(as(i + 1), { patch, revision: patch, verdict: i % 2 === 0 ? 'accept' : 'reject', summary: 'Reviewed.', tips: [patch] });
    patchIds.push(patch);
  }
  // Refs are signed once at the end instead of after every write.
  for (const peer of peers) await resignRefs(context, repo, peer);
  await repackRepository(repo.gitDir);
  return { cobRid: repo.rid, issueIds: issueIds.slice(-20), patchIds: patchIds.slice(-20) };
}

function writeContext(context: HomeContext, repo: BuiltRepository, peer: Peer): CobWriteContext {
  return { gitDir: repo.gitDir, keyPair: peer.keyPair, alias: peer.alias, time: context.clock.tick(), flavour: context.flavour, signRefs: false };
}

/** One commit on top of the head changing one file: the revision of patch `i`. */
async function writePatchCommit(repo: BuiltRepository, i: number): Promise<Oid> {
  const blob = await writeObject(repo.gitDir, 'blob', Buffer.from(`change ${i}\n`));
  const tree = await writeObject(repo.gitDir, 'tree', serializeTree([{ name: `change-${i}.txt`, mode: '100644', oid: blob }]));
  const person = { name: 'Bench', email: 'bench@example.org', time: 1_690_000_000 + i, offset: '+0000' };
  const commit = serializeCommit({ tree, parents: [repo.head], author: person, committer: person, message: `Change ${i}\n` });
  return writeObject(repo.gitDir, 'commit', commit);
}
