import type { GitSample } from './git-fixture.js';

/** Which targets a route class is judged by. */
export type RouteGroup = 'node' | 'listing' | 'history' | 'commit-addressed' | 'cob';

/** One class of requests, with its forge-httpd paths and the equivalent baseline work. */
export interface RouteClass {
  readonly name: string;
  readonly group: RouteGroup;
  readonly paths: readonly string[];
  /** git CLI argument lists (run with `git -C <repo>`) doing the equivalent read. */
  readonly git: ReadonlyArray<readonly string[]>;
  /** Equivalent cgit page paths (repository `big`), when cgit has one. */
  readonly cgit: readonly string[];
}

/** Ids of the node home the workload points at; absent parts drop their route classes. */
export interface WorkloadIds {
  readonly bigRid: string | null;
  readonly cobRid: string | null;
  readonly issueIds: readonly string[];
  readonly patchIds: readonly string[];
  readonly searchQuery: string;
}

const LOG_FORMAT = '--format=%H%x00%T%x00%P%x00%an%x00%ae%x00%at%x00%cn%x00%ce%x00%ct%x00%B%x00';
const API = '/api/v1';

/** Builds every route class of the issue from the fixture's sample commits and home ids. */
export function buildRouteClasses(samples: readonly GitSample[], ids: WorkloadIds): RouteClass[] {
  const routes: RouteClass[] = [
    { name: 'node', group: 'node', paths: [`${API}/node`], git: [], cgit: [] },
    { name: 'repos', group: 'listing', paths: [`${API}/repos?show=all`], git: [], cgit: [] },
    { name: 'search', group: 'listing', paths: [`${API}/repos/search?q=${encodeURIComponent(ids.searchQuery)}`], git: [], cgit: [] },
  ];
  if (ids.bigRid !== null) routes.push(...repositoryRoutes(`${API}/repos/${ids.bigRid}`, samples));
  if (ids.cobRid !== null) routes.push(...cobRoutes(`${API}/repos/${ids.cobRid}`, ids));
  return routes;
}

function repositoryRoutes(repo: string, samples: readonly GitSample[]): RouteClass[] {
  const each = <T>(fn: (s: GitSample) => T): T[] => samples.map(fn);
  return [
    { name: 'repo', group: 'listing', paths: [repo], git: [], cgit: [] },
    {
      name: 'commits',
      group: 'history',
      paths: each((s) => `${repo}/commits?parent=${s.commit}`),
      git: each((s) => ['log', '-n', '30', LOG_FORMAT, s.commit]),
      cgit: each((s) => `/big/log/?id=${s.commit}`),
    },
    {
      name: 'commit',
      group: 'commit-addressed',
      paths: each((s) => `${repo}/commits/${s.commit}`),
      git: each((s) => ['diff-tree', '-p', '-M', '-C', '--root', '--pretty=raw', s.commit]),
      cgit: each((s) => `/big/commit/?id=${s.commit}`),
    },
    {
      name: 'diff',
      group: 'commit-addressed',
      paths: each((s) => `${repo}/diff/${s.base}/${s.commit}`),
      git: each((s) => ['diff-tree', '-p', '-M', '-C', s.base, s.commit]),
      cgit: each((s) => `/big/diff/?id=${s.commit}&id2=${s.base}`),
    },
    {
      name: 'tree',
      group: 'commit-addressed',
      paths: each((s) => `${repo}/tree/${s.commit}/${s.dir}`),
      git: each((s) => ['ls-tree', `${s.commit}:${s.dir}`]),
      cgit: each((s) => `/big/tree/${s.dir}?id=${s.commit}`),
    },
    {
      name: 'blob',
      group: 'commit-addressed',
      paths: each((s) => `${repo}/blob/${s.commit}/${s.file}`),
      git: each((s) => ['cat-file', '-p', `${s.commit}:${s.file}`]),
      cgit: each((s) => `/big/blob/${s.file}?id=${s.commit}`),
    },
    {
      name: 'readme',
      group: 'commit-addressed',
      paths: each((s) => `${repo}/readme/${s.commit}`),
      git: each((s) => ['cat-file', '-p', `${s.commit}:README.md`]),
      cgit: [],
    },
  ];
}

function cobRoutes(repo: string, ids: WorkloadIds): RouteClass[] {
  const routes: RouteClass[] = [
    { name: 'issues', group: 'cob', paths: [`${repo}/issues`], git: [], cgit: [] },
    { name: 'patches', group: 'cob', paths: [`${repo}/patches`], git: [], cgit: [] },
  ];
  if (ids.issueIds.length > 0) routes.push({ name: 'issue', group: 'cob', paths: ids.issueIds.map((id) => `${repo}/issues/${id}`), git: [], cgit: [] });
  if (ids.patchIds.length > 0) routes.push({ name: 'patch', group: 'cob', paths: ids.patchIds.map((id) => `${repo}/patches/${id}`), git: [], cgit: [] });
  return routes;
}

/** Route classes that carry the load for the "trivial request under saturation" test. */
export const HEAVY_ROUTES = ['commit', 'diff', 'commits'];
