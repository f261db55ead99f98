/**
 * Which explorer schema each `GET /api/v1/…` route template answers with. A template segment
 * `:name` matches one path segment, a final `*` any rest (also none). Routes the explorer never
 * parses have no schema (`null`); a JSON route missing from this table is reported, so a new
 * route cannot go unchecked.
 */
import { z } from 'zod';
import { activity, blame, blob, commit, commitCount, commits, compare, grep, lastCommits, rangeDiff, tree, treeStats } from './browse.js';
import { issue, jobs, patch } from './cob.js';
import { diffStats } from './diff.js';
import { apiInfo, info, inventory, node, nodeIdentity, nodeStats, policies, policy } from './node.js';
import { remote, repoInfo, searchResult } from './repo.js';

/** A route template (path after `/api/v1`, without leading slash) and its schema. */
export interface ExplorerRoute {
  readonly template: string;
  readonly schema: z.ZodType;
}

/** The routes of the API level, most specific first, for a server of `flavour`. */
export function explorerRoutes(flavour: string): readonly ExplorerRoute[] {
  const repo = repoInfo(flavour);
  const table: Record<string, z.ZodType> = {
    '': apiInfo,
    node,
    'node/policies/repos': policies,
    'node/policies/repos/:rid': policy,
    'nodes/:nid': nodeIdentity,
    'nodes/:nid/inventory': inventory,
    stats: nodeStats,
    info,
    // Not an explorer route: this server's OpenAPI document (checked against itself elsewhere).
    'openapi.json': z.looseObject({ openapi: z.literal('3.1.0'), info: z.object({ title: z.string() }), paths: z.record(z.string(), z.unknown()) }),
    'delegates/:did/repos': z.array(repo),
    repos: z.array(repo),
    'repos/search': z.array(searchResult(flavour)),
    'repos/:rid': repo,
    'repos/:rid/activity': activity,
    'repos/:rid/readme/:sha': blob,
    'repos/:rid/blob/:sha/*': blob,
    'repos/:rid/tree/:sha/*': tree,
    'repos/:rid/blame/:sha/*': blame,
    'repos/:rid/last-commits/:sha/*': lastCommits,
    'repos/:rid/stats/tree/:sha': treeStats,
    'repos/:rid/stats/commits/:sha': commitCount,
    'repos/:rid/remotes': z.array(remote),
    'repos/:rid/remotes/:peer': remote,
    'repos/:rid/commits': commits,
    'repos/:rid/commits/:sha': commit,
    'repos/:rid/diff/:base/:oid': rangeDiff,
    'repos/:rid/diff/:base/:oid/stats': diffStats,
    'repos/:rid/grep/:sha': grep,
    'repos/:rid/compare/:range': compare,
    'repos/:rid/jobs/:sha': jobs,
    'repos/:rid/issues': z.array(issue),
    'repos/:rid/issues/:id': issue,
    'repos/:rid/patches': z.array(patch),
    'repos/:rid/patches/:id': patch,
    // Not explorer routes: change logs of any COB type (checked against the OpenAPI document too).
    'repos/:rid/cobs/:typeName': z.array(z.object({ id: z.string(), changes: z.number(), updated: z.number() })),
    'repos/:rid/cobs/:typeName/:id': z.object({ typeName: z.string(), id: z.string(), changes: z.array(z.looseObject({ id: z.string() })) }),
  };
  return Object.entries(table).map(([template, schema]) => ({ template, schema }));
}

/** Paths outside `/api/v1` that answer JSON the explorer never parses. */
export const UNPARSED_PATHS: readonly string[] = ['/', '/api'];

/**
 * Finds the route a path (after `/api/v1/`, no query) belongs to.
 * @returns the route, or undefined when no template matches
 */
export function matchExplorerRoute(routes: readonly ExplorerRoute[], path: string): ExplorerRoute | undefined {
  const segments = path === '' ? [] : path.split('/');
  const exact = routes.find((route) => matchesTemplate(route.template, segments, false));
  return exact ?? routes.find((route) => matchesTemplate(route.template, segments, true));
}

function matchesTemplate(template: string, segments: readonly string[], allowRest: boolean): boolean {
  const parts = template === '' ? [] : template.split('/');
  const rest = parts[parts.length - 1] === '*';
  if (rest !== allowRest) return false;
  const fixed = rest ? parts.slice(0, -1) : parts;
  if (rest ? segments.length < fixed.length : segments.length !== fixed.length) return false;
  return fixed.every((part, index) => (part.startsWith(':') ? segments[index] !== '' : part === segments[index]));
}
