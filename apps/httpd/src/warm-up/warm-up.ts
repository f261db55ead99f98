/**
 * Start-up warm-up: once the storage index is built, the server requests from itself (over its
 * own listening address, so every layer takes part) the pages an explorer opens first for a few
 * repositories — the pinned ones (else the first public one) and those visitors asked for most
 * before the restart. The code paths get compiled and the chosen repositories' git processes
 * and caches are ready, so the first visitor does not pay for them.
 */
import http from 'node:http';
import type { Commit, RepoInfo, Tree } from '@forge-httpd/api-types';
import type { Rid } from '@forge-httpd/identity';
import { isPublicSummary, type NodeHome, type RepositorySummary, warmUpCommitGraphCode } from '@forge-httpd/storage';
import type { ListenAddress } from '../config/listen-address.js';

/** At most this many pinned repositories are warmed. */
const WARM_UP_REPOSITORIES = 3;

/** At most this many of the repositories visited most before the restart are warmed too. */
const WARM_UP_VISITED = 3;

/** What a warm-up did. */
export interface WarmUpReport {
  /** Each path requested and its status. */
  readonly requests: ReadonlyArray<{ readonly path: string; readonly status: number }>;
  /** How the commit-graph code's run on its in-memory graph went (a self-check of its answers). */
  readonly commitGraphCode: 'consistent' | 'inconsistent' | 'not run';
}

const API = '/api/v1';

/** What else a warm-up reads. */
export interface WarmUpOptions {
  /**
   * Repositories whose issue and patch listings to load too, asked once the index is built:
   * those with persisted evaluations, so the first listing after a restart is answered from
   * memory instead of reading thousands of cached objects.
   */
  readonly cobRepositories?: () => readonly Rid[];
  /**
   * Repositories visitors asked for most, most first (kept across restarts in the cache
   * directory): warmed like the pinned ones, since their visitors come back after a restart.
   */
  readonly visitedRepositories?: () => readonly Rid[];
}

/**
 * Warms the server up; never throws (a failing request is recorded with its status, 0 when it
 * could not be made). Stops early when `signal` aborts (server closing).
 */
export async function warmUp(address: ListenAddress, home: NodeHome, signal?: AbortSignal, options: WarmUpOptions = {}): Promise<WarmUpReport> {
  const requests: Array<{ path: string; status: number }> = [];
  const get = async (path: string): Promise<string | null> => {
    if (signal?.aborted === true) return null;
    const response = await request(address, path);
    requests.push({ path, status: response.status });
    return response.status === 200 ? response.body : null;
  };
  try {
    await home.storageIndex.ready();
  } catch {
    return { requests, commitGraphCode: 'not run' };
  }
  if (signal?.aborted === true) return { requests, commitGraphCode: 'not run' };
  // The pages below take the routes' code, but the repositories warmed rarely have a history
  // long enough for the commit-graph loops to be compiled; a big repository's first commit
  // page would pay for that.
  const commitGraphCode = warmUpCommitGraphCode() ? 'consistent' : 'inconsistent';
  await get(`${API}/node`);
  await get(`${API}/repos`);
  const chosen = chooseRepositories(home, options.visitedRepositories?.() ?? []);
  for (const summary of chosen) {
    const repo = `${API}/repos/${summary.rid}`;
    const info = await get(repo);
    const head = info === null ? undefined : projectHead(JSON.parse(info) as RepoInfo);
    const commits = await get(`${repo}/commits`);
    await get(`${repo}/issues`);
    await get(`${repo}/patches`);
    if (head === undefined) continue;
    const tree = await get(`${repo}/tree/${head}/`);
    await get(`${repo}/readme/${head}`);
    await get(`${repo}/commits/${head}`);
    // The diff and blob pages too, so a first visitor's first such page finds them compiled
    // (a root head is compared with itself: an empty diff still takes the route's code).
    const parent = commits === null ? undefined : firstParentOf(JSON.parse(commits) as Commit[], head);
    await get(`${repo}/diff/${parent ?? head}/${head}`);
    const file = tree === null ? undefined : (JSON.parse(tree) as Tree).entries.find((entry) => entry.kind === 'blob');
    if (file !== undefined) await get(`${repo}/blob/${head}/${file.path.split('/').map(encodeURIComponent).join('/')}`);
  }
  const warmed = new Set(chosen.map((summary) => summary.rid));
  for (const rid of options.cobRepositories?.() ?? []) {
    const summary = home.storageIndex.get(rid);
    if (warmed.has(rid) || summary === undefined || !isPublicSummary(summary)) continue;
    await get(`${API}/repos/${rid}/issues`);
    await get(`${API}/repos/${rid}/patches`);
  }
  return { requests, commitGraphCode };
}

/**
 * Pinned public repositories (config order) and the most visited public ones not among them;
 * when there are neither, the first public one in the index (its pages compile the code).
 */
function chooseRepositories(home: NodeHome, visited: readonly Rid[]): RepositorySummary[] {
  const index = home.storageIndex;
  const publicOnes = (rids: readonly Rid[]): RepositorySummary[] =>
    rids.map((rid) => index.get(rid)).filter((summary): summary is RepositorySummary => summary !== undefined && isPublicSummary(summary));
  const pinned = publicOnes(home.currentWebConfig().pinnedRepositories).slice(0, WARM_UP_REPOSITORIES);
  const returning = publicOnes(visited)
    .filter((summary) => !pinned.some((known) => known.rid === summary.rid))
    .slice(0, WARM_UP_VISITED);
  if (pinned.length > 0 || returning.length > 0) return [...pinned, ...returning];
  const first = index.list().find(isPublicSummary);
  return first === undefined ? [] : [first];
}

function projectHead(info: RepoInfo): string | undefined {
  for (const entry of Object.values(info.payloads)) {
    const meta = (entry as { meta?: { head?: unknown } }).meta;
    if (typeof meta?.head === 'string') return meta.head;
  }
  return undefined;
}

/** The first parent of `head` when the listing starts at it. */
function firstParentOf(commits: readonly Commit[], head: string): string | undefined {
  const first = commits[0];
  return first?.id === head ? first.parents[0] : undefined;
}

/** One GET to the server itself; status 0 when it failed. */
function request(address: ListenAddress, path: string): Promise<{ status: number; body: string }> {
  const target = address.kind === 'unix' ? { socketPath: address.path } : { host: address.host, port: address.port };
  return new Promise((resolve) => {
    const outgoing = http.get({ ...target, path, agent: false, timeout: 30_000 }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', () => resolve({ status: 0, body: '' }));
    });
    outgoing.on('timeout', () => outgoing.destroy());
    outgoing.on('error', () => resolve({ status: 0, body: '' }));
  });
}
