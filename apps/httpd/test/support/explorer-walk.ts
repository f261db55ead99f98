/**
 * Walks every route of a running server the way radicle-explorer browses it (node, listings,
 * each repository's info, history, commits, range diffs, tree, blobs, readme, remotes, issues,
 * patches with their revisions, jobs, delegates and peers) and checks each JSON response with
 * {@link explorerProblems}. Coverage does not depend on which other specs fetch what.
 */
import { explorerProblems, explorerRoutes, matchExplorerRoute } from './explorer-schemas/index.js';

/** What a walk found. */
export interface ExplorerWalk {
  /** Problems, each `GET <path> (<status>): <issue>`. */
  problems: string[];
  /** Route templates that answered 2xx at least once. */
  served: Set<string>;
  /** Number of requests made. */
  requests: number;
}

type Json = Record<string, unknown>;

/** Bounds that keep a walk of a large repository short. */
const MAX_COMMITS = 30;
const MAX_TREE_ENTRIES = 200;

/**
 * Walks a server.
 * @param baseUrl - `http://host:port`
 * @param flavour - the server's flavour (names the project payload)
 * @returns the problems and which templates were served
 */
export async function walkExplorerRoutes(baseUrl: string, flavour: string): Promise<ExplorerWalk> {
  const walk: ExplorerWalk = { problems: [], served: new Set(), requests: 0 };
  const routes = explorerRoutes(flavour);
  const seen = new Map<string, Promise<unknown>>();
  const get = (path: string): Promise<unknown> => {
    const known = seen.get(path);
    if (known !== undefined) return known;
    const pending = fetchChecked(baseUrl, path, walk, routes);
    seen.set(path, pending);
    return pending;
  };
  await Promise.all(['/', '/api', '/api/v1', '/api/v1/stats', '/api/v1/info', '/api/v1/openapi.json'].map(get));
  const node = (await get('/api/v1/node')) as Json | undefined;
  const nids = new Set<string>(typeof node?.['id'] === 'string' ? [node['id']] : []);
  for (const entry of asArray(await get('/api/v1/node/policies/repos'))) await get(`/api/v1/node/policies/repos/${String(entry['rid'])}`);
  const listed = [
    ...asArray(await get('/api/v1/repos?show=all&perPage=100')),
    ...asArray(await get('/api/v1/repos')),
    ...asArray(await get('/api/v1/repos/search?q=')),
  ];
  const rids = new Set(listed.map((repo) => String(repo['rid'])));
  for (const rid of rids) await walkRepository({ get, rid, flavour, nids });
  for (const nid of nids) await Promise.all([get(`/api/v1/nodes/${nid}`), get(`/api/v1/nodes/${nid}/inventory`)]);
  return walk;
}

async function fetchChecked(baseUrl: string, path: string, walk: ExplorerWalk, routes: ReturnType<typeof explorerRoutes>): Promise<unknown> {
  const url = `${baseUrl}${path}`;
  const response = await fetch(url);
  const text = await response.text();
  walk.requests += 1;
  walk.problems.push(...explorerProblems({ url, status: response.status, contentType: response.headers.get('content-type'), text }));
  if (!response.ok) return undefined;
  const route = matchExplorerRoute(routes, new URL(url).pathname.slice('/api/v1/'.length).replace(/\/$/, ''));
  const underApi = path === '/api/v1' || path.startsWith('/api/v1/');
  if (route !== undefined && underApi) walk.served.add(route.template);
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

interface RepoWalk {
  get(path: string): Promise<unknown>;
  rid: string;
  flavour: string;
  nids: Set<string>;
}

async function walkRepository({ get, rid, flavour, nids }: RepoWalk): Promise<void> {
  const repo = `/api/v1/repos/${rid}`;
  const info = (await get(repo)) as Json | undefined;
  await get(`${repo}/activity`);
  for (const delegate of asArray(info?.['delegates'])) await get(`/api/v1/delegates/${String(delegate['id'])}/repos?show=all`);
  const project = (info?.['payloads'] as Json | undefined)?.[`xyz.${flavour}.project`] as Json | undefined;
  const head = (project?.['meta'] as Json | undefined)?.['head'];
  for (const remote of asArray(await get(`${repo}/remotes`))) {
    nids.add(String(remote['id']));
    await get(`${repo}/remotes/${String(remote['id'])}`);
  }
  const commits = asArray(await get(`${repo}/commits?perPage=${MAX_COMMITS}`));
  for (const commit of commits) await walkCommit(get, repo, commit);
  if (typeof head === 'string') {
    await Promise.all([
      get(`${repo}/readme/${head}`),
      get(`${repo}/stats/tree/${head}`),
      get(`${repo}/commits?parent=${head}`),
      // Beyond the explorer: code search and a filtered history.
      get(`${repo}/grep/${head}?q=the`),
      get(`${repo}/commits?parent=${head}&author=a&q=e`),
    ]);
    await walkTree(get, `${repo}`, head);
  }
  for (const issue of asArray(await get(`${repo}/issues?status=all&perPage=100`))) await get(`${repo}/issues/${String(issue['id'])}`);
  // The change logs of the issues (any COB type is served the same way).
  for (const object of asArray(await get(`${repo}/cobs/xyz.${flavour}.issue`))) await get(`${repo}/cobs/xyz.${flavour}.issue/${String(object['id'])}`);
  for (const patch of asArray(await get(`${repo}/patches?status=all&perPage=100`))) {
    await get(`${repo}/patches/${String(patch['id'])}`);
    for (const revision of asArray(patch['revisions'])) {
      const { base, oid } = revision as { base: string; oid: string };
      await Promise.all([
        get(`${repo}/diff/${base}/${oid}`),
        get(`${repo}/diff/${base}/${oid}/stats`),
        get(`${repo}/compare/${base}...${oid}`),
        get(`${repo}/jobs/${oid}`),
        get(`${repo}/commits/${oid}`),
      ]);
    }
  }
}

async function walkCommit(get: RepoWalk['get'], repo: string, commit: Json): Promise<void> {
  const id = String(commit['id']);
  const parent = asStrings(commit['parents'])[0];
  await Promise.all([
    get(`${repo}/commits/${id}`),
    get(`${repo}/stats/commits/${id}`),
    get(`${repo}/jobs/${id}`),
    ...(parent === undefined ? [] : [get(`${repo}/diff/${parent}/${id}`), get(`${repo}/diff/${parent}/${id}/stats`)]),
  ]);
}

async function walkTree(get: RepoWalk['get'], repo: string, head: string): Promise<void> {
  const pending = [''];
  let visited = 0;
  while (pending.length > 0 && visited < MAX_TREE_ENTRIES) {
    const dir = pending.shift() ?? '';
    const [tree] = (await Promise.all([get(`${repo}/tree/${head}/${dir}`), get(`${repo}/last-commits/${head}/${dir}`)])) as Array<Json | undefined>;
    for (const entry of asArray(tree?.['entries'])) {
      visited += 1;
      const path = encodePath(String(entry['path']));
      if (entry['kind'] === 'tree') pending.push(path);
      else if (entry['kind'] === 'blob' && visited < MAX_TREE_ENTRIES)
        await Promise.all([get(`${repo}/blob/${head}/${path}`), get(`${repo}/blame/${head}/${path}`)]);
    }
  }
}

function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

function asArray(value: unknown): Json[] {
  return Array.isArray(value) ? (value.filter((item) => typeof item === 'object' && item !== null) as Json[]) : [];
}

function asStrings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
