/**
 * A small typed client: one function per JSON route, responses validated against the route's
 * schema. Runs anywhere `fetch` does (browsers, Node 18+, Deno); no Node built-ins.
 */
import * as v from 'valibot';
import { errorBodySchema, type ErrorBody, tooLargeBodySchema, type TooLargeBody } from './error.js';
import { JSON_ROUTES, type JsonRouteName, type RouteResponse } from './routes.js';

/** An error answer of the server (status ≥ 400), with its parsed body. */
export class ApiError extends Error {
  readonly code = 'API_ERROR';
  constructor(
    readonly status: number,
    /** `{error, code}`, `[]` for a 413 of blob/readme, or the raw text when neither. */
    readonly body: ErrorBody | TooLargeBody | string,
  ) {
    super(typeof body === 'object' && !Array.isArray(body) ? `${status}: ${body.error}` : `${status}`);
    this.name = 'ApiError';
  }
}

/** A 2xx answer whose body does not match the contract (server and client disagree). */
export class ContractError extends Error {
  readonly code = 'CONTRACT_MISMATCH';
  constructor(
    readonly status: number,
    readonly body: unknown,
    /** Where and why validation failed, e.g. `diff.files.0.status: Invalid type`. */
    readonly problems: readonly string[],
  ) {
    super(`response does not match the contract: ${problems.slice(0, 3).join('; ')}`);
    this.name = 'ContractError';
  }
}

/** Options of {@link createClient}. */
export interface ClientOptions {
  /** Server origin, e.g. `http://127.0.0.1:8080` (no trailing `/api/v1`). */
  readonly baseUrl: string;
  /** A `fetch` to use instead of the global one. */
  readonly fetch?: typeof fetch;
  /** Headers sent with every request. */
  readonly headers?: Readonly<Record<string, string>>;
}

type Route<N extends JsonRouteName> = (typeof JSON_ROUTES)[N];
type ParamValues<N extends JsonRouteName> = { readonly [K in keyof Route<N>['params']]: string };
type QueryValue<K> = K extends readonly (infer C)[] ? C : K extends 'uint' | 'int64' ? number : string;
type QueryValues<N extends JsonRouteName> = { readonly [K in keyof Route<N>['query']]?: QueryValue<Route<N>['query'][K]> };
type Args<N extends JsonRouteName> = keyof Route<N>['params'] extends never
  ? keyof Route<N>['query'] extends never
    ? []
    : [query?: QueryValues<N>]
  : keyof Route<N>['query'] extends never
    ? [params: ParamValues<N>]
    : [params: ParamValues<N>, query?: QueryValues<N>];

/** The client: `client.getRepo({ rid })`, `client.listCommits({ rid }, { perPage: 5 })`, … */
export type Client = { readonly [N in JsonRouteName]: (...args: Args<N>) => Promise<RouteResponse<N>> };

/**
 * Builds the URL of a JSON route.
 * @param baseUrl - server origin
 * @param name - route name (see `JSON_ROUTES`)
 * @param params - path parameters (a `path` parameter keeps its slashes)
 * @param query - query parameters; undefined values are left out
 */
export function routeUrl(
  baseUrl: string,
  name: JsonRouteName,
  params: Readonly<Record<string, string>> = {},
  query: Readonly<Record<string, string | number | undefined>> = {},
): string {
  const path = JSON_ROUTES[name].path.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = params[key] ?? '';
    return key === 'path' ? value.split('/').map(encodeURIComponent).join('/') : encodeURIComponent(value);
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) search.set(key, String(value));
  const text = search.toString();
  return `${baseUrl.replace(/\/$/, '')}${path}${text === '' ? '' : `?${text}`}`;
}

function errorBody(text: string): ErrorBody | TooLargeBody | string {
  try {
    const json: unknown = JSON.parse(text);
    if (v.is(errorBodySchema, json)) return json;
    if (v.is(tooLargeBodySchema, json)) return json;
  } catch {
    // Not JSON: keep the text.
  }
  return text;
}

async function call(options: ClientOptions, name: JsonRouteName, args: readonly unknown[]): Promise<unknown> {
  const route = JSON_ROUTES[name];
  const hasParams = Object.keys(route.params).length > 0;
  const params = (hasParams ? args[0] : {}) as Record<string, string>;
  const query = (hasParams ? args[1] : args[0]) as Record<string, string | number> | undefined;
  const response = await (options.fetch ?? fetch)(routeUrl(options.baseUrl, name, params, query), {
    headers: { accept: 'application/json', ...options.headers },
  });
  const text = await response.text();
  if (!response.ok) throw new ApiError(response.status, errorBody(text));
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ContractError(response.status, text, ['body is not JSON']);
  }
  const result = v.safeParse(route.response, json);
  if (result.success) return result.output;
  const problems = result.issues.map((issue) => `${v.getDotPath(issue) ?? '(body)'}: ${issue.message}`);
  throw new ContractError(response.status, json, problems);
}

/**
 * Creates a client of a forge-httpd (or radicle-httpd) server.
 * @param options - base URL, optional `fetch` and headers
 * @returns one async function per JSON route; each throws {@link ApiError} on an error answer
 *   and {@link ContractError} when a 2xx body does not match the contract
 */
export function createClient(options: ClientOptions): Client {
  const entries = (Object.keys(JSON_ROUTES) as JsonRouteName[]).map((name) => [name, (...args: unknown[]) => call(options, name, args)]);
  return Object.fromEntries(entries) as Client;
}
