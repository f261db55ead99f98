/**
 * Checks a response the e2e suites fetched: a 2xx JSON body against the explorer schema of its
 * route (docs/decisions.md, "General rule": no value the explorer rejects), an error body
 * against our one error shape `{error, code}` (the 413 of blob/readme is `[]`, docs/api.md).
 */
import { z } from 'zod';
import { explorerRoutes, matchExplorerRoute, UNPARSED_PATHS, type ExplorerRoute } from './routes.js';

/** What the check needs of a response. */
export interface CheckedResponse {
  readonly url: string;
  readonly status: number;
  readonly contentType: string | null;
  readonly text: string;
}

const errorBody = z.strictObject({ error: z.string(), code: z.number() });
const routesByFlavour = new Map<string, readonly ExplorerRoute[]>();
const flavourByOrigin = new Map<string, string>();

/** Records the flavour a test server at `baseUrl` runs with (default: forge, the server's default). */
export function registerServerFlavour(baseUrl: string, flavour: string): void {
  flavourByOrigin.set(new URL(baseUrl).origin, flavour);
}

/**
 * Lists what is wrong with a response: empty when it is acceptable.
 * @param response - url, status, content type and body text
 * @returns readable problems, each naming the path and the issue
 */
export function explorerProblems(response: CheckedResponse): string[] {
  const url = new URL(response.url);
  const where = `GET ${url.pathname}${url.search} (${response.status})`;
  if (response.text === '' || !(response.contentType ?? '').includes('json')) return [];
  let body: unknown;
  try {
    body = JSON.parse(response.text);
  } catch {
    return [`${where}: body is not JSON`];
  }
  if (response.status >= 400) return errorProblems(where, response.status, body);
  if (response.status < 200 || response.status > 299) return [];
  const schema = schemaFor(url);
  if (schema === null) return [];
  if (schema === undefined) return [`${where}: no explorer schema for this route (add it to explorer-schemas/routes.ts)`];
  const result = schema.safeParse(body);
  return result.success ? [] : result.error.issues.map((issue) => `${where}: ${describeIssue(issue, body)}`);
}

/** Throws one readable error listing the problems of a response, if any. */
export function assertExplorerAccepts(response: CheckedResponse): void {
  const problems = explorerProblems(response);
  if (problems.length === 0) return;
  const shown = problems.slice(0, 10);
  const more = problems.length > shown.length ? `\n… and ${problems.length - shown.length} more` : '';
  throw new Error(`radicle-explorer would reject this response:\n${shown.join('\n')}${more}`);
}

function errorProblems(where: string, status: number, body: unknown): string[] {
  if (status === 413 && Array.isArray(body) && body.length === 0) return [];
  const result = errorBody.safeParse(body);
  if (!result.success) return result.error.issues.map((issue) => `${where}: error body ${describeIssue(issue, body)}`);
  return result.data.code === status ? [] : [`${where}: error body code ${result.data.code} differs from the status`];
}

/** The schema of a URL's route: null when the explorer never parses it, undefined when unknown. */
function schemaFor(url: URL): z.ZodType | null | undefined {
  if (UNPARSED_PATHS.includes(url.pathname)) return null;
  const prefix = '/api/v1';
  if (url.pathname !== prefix && !url.pathname.startsWith(`${prefix}/`)) return undefined;
  const flavour = flavourByOrigin.get(url.origin) ?? 'forge';
  let routes = routesByFlavour.get(flavour);
  if (routes === undefined) {
    routes = explorerRoutes(flavour);
    routesByFlavour.set(flavour, routes);
  }
  const path = url.pathname.slice(prefix.length + 1);
  // A trailing slash names the same resource (the tree route's empty path included).
  return matchExplorerRoute(routes, path.replace(/\/$/, ''))?.schema;
}

function describeIssue(issue: z.core.$ZodIssue, body: unknown): string {
  const at = issue.path.length === 0 ? '(body)' : issue.path.map(String).join('.');
  const value = valueAt(body, issue.path);
  const shown = value === undefined ? 'absent' : JSON.stringify(value).slice(0, 120);
  return `at ${at}: ${issue.message} (value: ${shown})`;
}

function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let value = body;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}
