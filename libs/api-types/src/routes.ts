/**
 * The routes of the API as data: path template, parameters, response schema, caching and error
 * statuses. The typed client and the OpenAPI document (`docs/openapi.json`) are both built from
 * this table, so a route cannot be documented one way and served another.
 */
import * as v from 'valibot';
import { activitySchema, commitDetailSchema, commitSchema, rangeDiffResponseSchema } from './commit.js';
import { blobSchema } from './blob.js';
import { blameSchema, lastCommitsSchema } from './blame.js';
import { apiInfoSchema, apiV1InfoSchema, nodeStatsSchema, rootInfoSchema, serverInfoSchema } from './info.js';
import { issueSchema } from './issue.js';
import { jobSchema } from './job.js';
import { cobChangeLogSchema, cobObjectSchema } from './cob-log.js';
import { nodeIdentitySchema, nodeInfoSchema, nodeInventorySchema, repoPolicySchema, seedingPolicySchema } from './node.js';
import { patchSchema } from './patch.js';
import { remoteSchema } from './remote.js';
import { repoInfoSchema, repoSearchResultSchema } from './repo.js';
import { commitCountStatsSchema, rangeDiffStatsSchema, treeStatsSchema } from './stats.js';
import { treeSchema } from './tree.js';
import { compareResponseSchema, grepResponseSchema } from './search.js';

/** A path or query parameter's kind; its pattern and meaning are in {@link PARAMETER_KINDS}. */
export type ParameterKind = 'rid' | 'oid' | 'nid' | 'did' | 'path' | 'uint' | 'int64' | 'string' | 'text' | 'revision' | 'typeName' | readonly string[];

/** What each scalar parameter kind accepts (the server answers 400 naming the parameter otherwise). */
export const PARAMETER_KINDS = {
  rid: {
    pattern: '^((rad:)?z[1-9A-HJ-NP-Za-km-z]+|[A-Za-z0-9][A-Za-z0-9._-]{0,63})$',
    description: 'repository id, `rad:z…` (base58 of 20 bytes), or a repository alias the server is configured with',
  },
  oid: { pattern: '^[0-9a-fA-F]{40}$', description: 'git object id, 40 hex digits' },
  nid: { pattern: '^z6Mk[1-9A-HJ-NP-Za-km-z]+$', description: 'node id `z6Mk…`' },
  did: { pattern: '^did:key:z6Mk[1-9A-HJ-NP-Za-km-z]+$', description: 'node DID `did:key:z6Mk…`' },
  path: { pattern: '', description: 'a path inside the tree; may contain `/`' },
  uint: { pattern: '^[0-9]+$', description: 'non-negative integer' },
  int64: { pattern: '^-?[0-9]+$', description: 'signed 64-bit integer (seconds since the epoch)' },
  string: { pattern: '', description: '' },
  text: { pattern: '', description: '1 to 256 characters' },
  revision: { pattern: '', description: 'a commit id (40 hex digits), or the name of a canonical branch or tag (`main`, `v1.0`; `/` written `%2F`)' },
  typeName: {
    pattern: '^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$',
    description: 'COB type name, a reverse domain name (e.g. `xyz.radicle.issue`), at most 255 characters',
  },
} as const;

/** Cache-Control classes of successful answers (docs/radicle-httpd.md §2.2). */
export type CacheClass = 'immutable' | 'short' | 'activity' | 'none';

/** Exact Cache-Control value per class (`none`: no header). */
export const CACHE_CONTROL: Readonly<Record<Exclude<CacheClass, 'none'>, string>> = {
  immutable: 'public, max-age=604800, immutable',
  short: 'public, max-age=600, must-revalidate',
  activity: 'public, max-age=3600, must-revalidate',
};

/** A JSON route of the API. */
export interface JsonRoute {
  /** Client function name and OpenAPI operationId. */
  readonly operationId: string;
  readonly summary: string;
  /** OpenAPI path template; a final `{path}` parameter may contain slashes. */
  readonly path: string;
  readonly params: Readonly<Record<string, ParameterKind>>;
  readonly query: Readonly<Record<string, ParameterKind>>;
  readonly response: v.GenericSchema;
  /** Error statuses besides 400 for malformed parameters and 404 / 405 / 500. */
  readonly errors: readonly number[];
  readonly cache: CacheClass | 'immutable with parent, else none' | 'immutable with commit ids, else none';
  readonly tag: string;
}

const PAGE = { page: 'uint', perPage: 'uint' } as const;
const REPO_LIST = { show: ['all', 'pinned'], ...PAGE } as const;
const REPO = { rid: 'rid' } as const;
const AT = { rid: 'rid', sha: 'oid' } as const;
const RANGE = { rid: 'rid', base: 'oid', oid: 'oid' } as const;

type RouteDefaults = { readonly query: Record<never, never>; readonly errors: readonly []; readonly cache: 'none' };
type RouteSpec = Omit<JsonRoute, keyof RouteDefaults> & Partial<JsonRoute>;

function route<const R extends RouteSpec>(spec: R): Omit<RouteDefaults, keyof R> & R {
  return { query: {}, errors: [], cache: 'none', ...spec };
}

/** Every JSON route, in the order of the API document. */
export const JSON_ROUTES = {
  getRoot: route({ operationId: 'getRoot', summary: 'Server welcome and links', tag: 'info', path: '/', params: {}, response: rootInfoSchema }),
  getApi: route({ operationId: 'getApi', summary: 'API versions', tag: 'info', path: '/api', params: {}, response: apiInfoSchema }),
  getApiV1: route({ operationId: 'getApiV1', summary: 'API level, node id and links', tag: 'info', path: '/api/v1', params: {}, response: apiV1InfoSchema }),
  getServerInfo: route({
    operationId: 'getServerInfo',
    summary: 'Node and server features',
    tag: 'info',
    path: '/api/v1/info',
    params: {},
    response: serverInfoSchema,
    cache: 'short',
  }),
  getNodeStats: route({ operationId: 'getNodeStats', summary: 'Repository count', tag: 'info', path: '/api/v1/stats', params: {}, response: nodeStatsSchema }),
  getNode: route({
    operationId: 'getNode',
    summary: 'The local node',
    tag: 'node',
    path: '/api/v1/node',
    params: {},
    response: nodeInfoSchema,
    cache: 'short',
  }),
  listPolicies: route({
    operationId: 'listPolicies',
    summary: 'Seeding policies',
    tag: 'node',
    path: '/api/v1/node/policies/repos',
    params: {},
    response: v.array(repoPolicySchema),
  }),
  getPolicy: route({
    operationId: 'getPolicy',
    summary: "A repository's seeding policy",
    tag: 'node',
    path: '/api/v1/node/policies/repos/{rid}',
    params: REPO,
    response: seedingPolicySchema,
  }),
  getNodeIdentity: route({
    operationId: 'getNodeIdentity',
    summary: 'A node: alias, DID, SSH key',
    tag: 'node',
    path: '/api/v1/nodes/{nid}',
    params: { nid: 'nid' },
    response: nodeIdentitySchema,
  }),
  getNodeInventory: route({
    operationId: 'getNodeInventory',
    summary: 'Repositories a node seeds',
    tag: 'node',
    path: '/api/v1/nodes/{nid}/inventory',
    params: { nid: 'nid' },
    response: nodeInventorySchema,
  }),
  listDelegateRepos: route({
    operationId: 'listDelegateRepos',
    summary: 'Repositories a DID delegates',
    tag: 'repos',
    path: '/api/v1/delegates/{did}/repos',
    params: { did: 'did' },
    query: REPO_LIST,
    response: v.array(repoInfoSchema),
  }),
  listRepos: route({
    operationId: 'listRepos',
    summary: 'Public repositories',
    tag: 'repos',
    path: '/api/v1/repos',
    params: {},
    query: { ...REPO_LIST, sort: ['rid', 'activity', 'seeding'] },
    response: v.array(repoInfoSchema),
  }),
  searchRepos: route({
    operationId: 'searchRepos',
    summary: 'Search repositories by name',
    tag: 'repos',
    path: '/api/v1/repos/search',
    params: {},
    query: { q: 'string', ...PAGE },
    response: v.array(repoSearchResultSchema),
    cache: 'short',
  }),
  getRepo: route({ operationId: 'getRepo', summary: 'A repository', tag: 'repos', path: '/api/v1/repos/{rid}', params: REPO, response: repoInfoSchema }),
  listCommits: route({
    operationId: 'listCommits',
    summary: 'History from a commit or the head',
    tag: 'browse',
    path: '/api/v1/repos/{rid}/commits',
    params: REPO,
    query: { parent: 'oid', since: 'int64', until: 'int64', path: 'text', author: 'text', q: 'text', ...PAGE },
    response: v.array(commitSchema),
    errors: [503],
    cache: 'immutable with parent, else none',
  }),
  getCommit: route({
    operationId: 'getCommit',
    summary: 'A commit with its diff',
    tag: 'browse',
    path: '/api/v1/repos/{rid}/commits/{sha}',
    params: AT,
    response: commitDetailSchema,
    cache: 'immutable',
  }),
  getDiff: route({
    operationId: 'getDiff',
    summary: 'Diff between two commits',
    tag: 'browse',
    path: '/api/v1/repos/{rid}/diff/{base}/{oid}',
    params: RANGE,
    response: rangeDiffResponseSchema,
    cache: 'immutable',
  }),
  getDiffStats: route({
    operationId: 'getDiffStats',
    summary: 'Numstat totals between two commits',
    tag: 'browse',
    path: '/api/v1/repos/{rid}/diff/{base}/{oid}/stats',
    params: RANGE,
    response: rangeDiffStatsSchema,
    errors: [413],
    cache: 'immutable',
  }),
  getCommitCount: route({
    operationId: 'getCommitCount',
    summary: 'Commits reachable from a commit',
    tag: 'browse',
    path: '/api/v1/repos/{rid}/stats/commits/{sha}',
    params: AT,
    response: commitCountStatsSchema,
    cache: 'immutable',
  }),
  searchCode: route({
    operationId: 'searchCode',
    summary: 'Lines of the files at a commit that hold a text',
    tag: 'browse',
    path: '/api/v1/repos/{rid}/grep/{sha}',
    params: AT,
    query: { q: 'text', path: 'path', ignoreCase: ['true', 'false'] },
    response: grepResponseSchema,
    errors: [503],
    cache: 'immutable',
  }),
  compare: route({
    operationId: 'compare',
    summary: 'Two commits compared: counts, commits and diff',
    tag: 'browse',
    path: '/api/v1/repos/{rid}/compare/{base}...{head}',
    params: { rid: 'rid', base: 'revision', head: 'revision' },
    response: compareResponseSchema,
    cache: 'immutable with commit ids, else none',
  }),
  getActivity: route({
    operationId: 'getActivity',
    summary: 'Commit times of the last 52 weeks',
    tag: 'browse',
    path: '/api/v1/repos/{rid}/activity',
    params: REPO,
    response: activitySchema,
    cache: 'activity',
  }),
  getTreeRoot: route({
    operationId: 'getTreeRoot',
    summary: 'Root tree of a commit',
    tag: 'browse',
    path: '/api/v1/repos/{rid}/tree/{sha}/',
    params: AT,
    response: treeSchema,
    cache: 'immutable',
  }),
  getTree: route({
    operationId: 'getTree',
    summary: 'A tree of a commit',
    tag: 'browse',
    path: '/api/v1/repos/{rid}/tree/{sha}/{path}',
    params: { ...AT, path: 'path' },
    response: treeSchema,
    cache: 'immutable',
  }),
  getTreeStats: route({
    operationId: 'getTreeStats',
    summary: 'Commits, branches and contributors',
    tag: 'browse',
    path: '/api/v1/repos/{rid}/stats/tree/{sha}',
    params: AT,
    response: treeStatsSchema,
    cache: 'immutable',
  }),
  listRemotes: route({
    operationId: 'listRemotes',
    summary: "Peers' signed refs",
    tag: 'browse',
    path: '/api/v1/repos/{rid}/remotes',
    params: REPO,
    response: v.array(remoteSchema),
  }),
  getRemote: route({
    operationId: 'getRemote',
    summary: "One peer's signed refs",
    tag: 'browse',
    path: '/api/v1/repos/{rid}/remotes/{peer}',
    params: { rid: 'rid', peer: 'nid' },
    response: remoteSchema,
  }),
  getBlob: route({
    operationId: 'getBlob',
    summary: 'A file at a commit',
    tag: 'browse',
    path: '/api/v1/repos/{rid}/blob/{sha}/{path}',
    params: { ...AT, path: 'path' },
    response: blobSchema,
    errors: [413],
    cache: 'immutable',
  }),
  getReadme: route({
    operationId: 'getReadme',
    summary: 'The README at a commit',
    tag: 'browse',
    path: '/api/v1/repos/{rid}/readme/{sha}',
    params: AT,
    response: blobSchema,
    errors: [413],
    cache: 'immutable',
  }),
  getBlame: route({
    operationId: 'getBlame',
    summary: 'Line attribution of a file at a commit',
    tag: 'browse',
    path: '/api/v1/repos/{rid}/blame/{sha}/{path}',
    params: { ...AT, path: 'path' },
    response: blameSchema,
    errors: [413, 503],
    cache: 'immutable',
  }),
  getLastCommitsRoot: route({
    operationId: 'getLastCommitsRoot',
    summary: 'Last commit of each root entry',
    tag: 'browse',
    path: '/api/v1/repos/{rid}/last-commits/{sha}/',
    params: AT,
    response: lastCommitsSchema,
    errors: [413, 503],
    cache: 'immutable',
  }),
  getLastCommits: route({
    operationId: 'getLastCommits',
    summary: 'Last commit of each entry of a folder',
    tag: 'browse',
    path: '/api/v1/repos/{rid}/last-commits/{sha}/{path}',
    params: { ...AT, path: 'path' },
    response: lastCommitsSchema,
    errors: [413, 503],
    cache: 'immutable',
  }),
  listJobs: route({
    operationId: 'listJobs',
    summary: 'Jobs (CI runs) of a commit',
    tag: 'cobs',
    path: '/api/v1/repos/{rid}/jobs/{sha}',
    params: AT,
    response: v.array(jobSchema),
  }),
  listIssues: route({
    operationId: 'listIssues',
    summary: 'Issues',
    tag: 'cobs',
    path: '/api/v1/repos/{rid}/issues',
    params: REPO,
    query: { ...PAGE, status: ['open', 'closed', 'all'] },
    response: v.array(issueSchema),
  }),
  getIssue: route({
    operationId: 'getIssue',
    summary: 'An issue',
    tag: 'cobs',
    path: '/api/v1/repos/{rid}/issues/{id}',
    params: { rid: 'rid', id: 'oid' },
    response: issueSchema,
  }),
  listPatches: route({
    operationId: 'listPatches',
    summary: 'Patches',
    tag: 'cobs',
    path: '/api/v1/repos/{rid}/patches',
    params: REPO,
    query: { ...PAGE, status: ['open', 'draft', 'archived', 'merged', 'all'] },
    response: v.array(patchSchema),
  }),
  getPatch: route({
    operationId: 'getPatch',
    summary: 'A patch',
    tag: 'cobs',
    path: '/api/v1/repos/{rid}/patches/{id}',
    params: { rid: 'rid', id: 'oid' },
    response: patchSchema,
  }),
  listCobObjects: route({
    operationId: 'listCobObjects',
    summary: 'Objects of any COB type, with their signed-change counts',
    tag: 'cobs',
    path: '/api/v1/repos/{rid}/cobs/{typeName}',
    params: { rid: 'rid', typeName: 'typeName' },
    query: PAGE,
    response: v.array(cobObjectSchema),
  }),
  getCobChangeLog: route({
    operationId: 'getCobChangeLog',
    summary: "An object's signed change log",
    tag: 'cobs',
    path: '/api/v1/repos/{rid}/cobs/{typeName}/{id}',
    params: { rid: 'rid', typeName: 'typeName', id: 'oid' },
    response: cobChangeLogSchema,
    errors: [413],
  }),
} as const;

/** Names of the JSON routes (client functions). */
export type JsonRouteName = keyof typeof JSON_ROUTES;

/** The parsed body type of a route. */
export type RouteResponse<N extends JsonRouteName> = v.InferOutput<(typeof JSON_ROUTES)[N]['response']>;
