/**
 * Request generators and answer checks shared by the fuzz spec (apps/httpd/test/fuzz-routes.spec.ts,
 * a few hundred requests in `npm test`) and the long-run fuzzer (`npm run fuzz`). Requests are
 * built from the route templates the server itself registered, so a new route is fuzzed
 * without touching this file.
 */
import { Agent, request as httpRequest } from 'node:http';
import fc from 'fast-check';

/** A route as Fastify registered it: `GET /api/v1/repos/:rid/tree/:sha/*`. */
export interface RouteTemplate {
  readonly method: string;
  readonly url: string;
}

/** Real values of the served home, mixed into the generated parameters. */
export interface FuzzValues {
  /** RIDs (`rad:z…`): public, private, absent. */
  readonly rids: readonly string[];
  /** Commit, tree and blob ids, issue and patch ids of the home. */
  readonly oids: readonly string[];
  /** NIDs (`z6Mk…`) of the local node and peers. */
  readonly nids: readonly string[];
  /** File and directory paths present at some head. */
  readonly paths: readonly string[];
}

/** One generated request. */
export interface FuzzRequest {
  readonly method: string;
  /** Path and query, written byte for byte on the request line. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Buffer;
}

/** An answer as received. */
export interface FuzzAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Buffer;
}

const METHODS = ['GET', 'GET', 'GET', 'GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'PROPFIND'];
const QUERY_KEYS = [
  'page',
  'perPage',
  'show',
  'sort',
  'q',
  'state',
  'status',
  'parent',
  'since',
  'until',
  'service',
  'prefix',
  'path',
  'author',
  'ignoreCase',
  'x',
];

const segment = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('', '.', '..', '%', '%zz', '%2e%2e', '%2F', '%00', 'HEAD', 'refs%2Fheads%2Fmain', 'main', 'a'.repeat(300), '..%2F..%2Fetc%2Fpasswd'),
  fc.stringMatching(/^[0-9a-f]{0,41}$/),
  fc.integer().map(String),
);

/** Writes a generated string as one path segment: percent-encoded unless it is a chosen raw form. */
function encodeSegment(value: string): string {
  return /^[A-Za-z0-9._~%-]*$/.test(value) ? value : encodeURIComponent(value);
}

function parameterArbitrary(name: string, values: FuzzValues): fc.Arbitrary<string> {
  const pick = (list: readonly string[]): fc.Arbitrary<string> => (list.length > 0 ? fc.constantFrom(...list) : segment);
  const rid = fc.oneof(
    pick(values.rids),
    pick(values.rids).map((value) => value.replace(/^rad:/, '')),
    segment.map((value) => `rad:${value}`),
  );
  switch (name) {
    case 'rid':
      return fc.oneof({ weight: 3, arbitrary: rid.map(encodeSegment) }, { weight: 1, arbitrary: segment.map(encodeSegment) });
    case 'repo':
      return fc.oneof(
        rid.map((value) => `${encodeSegment(value)}.git`),
        rid.map(encodeSegment),
        segment.map(encodeSegment),
      );
    case 'nid':
    case 'peer':
      return fc.oneof(pick(values.nids), segment.map(encodeSegment));
    case 'did':
      return fc.oneof(
        pick(values.nids).map((nid) => `did:key:${nid}`),
        pick(values.nids),
        segment.map(encodeSegment),
      );
    case 'typeName':
      return fc.oneof(
        {
          weight: 3,
          arbitrary: fc.constantFrom('xyz.forge.issue', 'xyz.forge.patch', 'xyz.radicle.id', 'xyz.radicle.issue', 'xyz.radworks.job', 'com.example.release'),
        },
        { weight: 1, arbitrary: fc.constantFrom('..', '.', 'a..b', '-a.b', `${'a.'.repeat(130)}b`, '%2E%2E%2Fetc', 'xyz.forge.issue%2F..') },
        { weight: 1, arbitrary: segment.map(encodeSegment) },
      );
    case '*':
      return fc.oneof(
        pick(values.paths).map((path) => path.split('/').map(encodeSegment).join('/')),
        fc.array(segment, { maxLength: 4 }).map((parts) => parts.map(encodeSegment).join('/')),
        fc.constantFrom('', 'main', 'main.zip', 'main.tar.gz', 'x.tar', '../../../../etc/passwd'),
      );
    case 'range': {
      // compare's `{base}...{head}`: ids and names on either side, and ranges without the dots.
      const side = fc.oneof(pick(values.oids), fc.constantFrom('main', 'master', 'v1.0', 'refs%2Fheads%2Fmain', '-', '..'), segment.map(encodeSegment));
      return fc.oneof(
        { weight: 3, arbitrary: fc.tuple(side, side).map(([base, head]) => `${base}...${head}`) },
        { weight: 1, arbitrary: fc.tuple(side, side).map(([base, head]) => `${base}..${head}`) },
        { weight: 1, arbitrary: segment.map(encodeSegment) },
      );
    }
    default:
      // sha, oid, base, id: real ids, prefixes, odd hex and anything else.
      return fc.oneof(
        { weight: 3, arbitrary: pick(values.oids) },
        { weight: 1, arbitrary: pick(values.oids).map((oid) => oid.slice(0, 7)) },
        { weight: 1, arbitrary: pick(values.oids).map((oid) => `${oid}.tar.gz`) },
        { weight: 2, arbitrary: segment.map(encodeSegment) },
      );
  }
}

const queryArbitrary = fc.option(
  fc
    .array(
      fc.tuple(
        fc.oneof(fc.constantFrom(...QUERY_KEYS), fc.string({ maxLength: 6 })),
        fc.oneof(
          fc.integer({ min: -5, max: 10 }).map(String),
          fc.constantFrom('all', 'pinned', 'open', 'closed', 'rid', 'activity', 'seeding', 'git-upload-pack', 'false', '1e9', '-0', '99999999999999999999', ''),
          fc.string({ maxLength: 10 }),
        ),
      ),
      { maxLength: 4 },
    )
    .map((pairs) => `?${pairs.map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`).join('&')}`),
  { nil: '' },
);

const headersArbitrary = fc.record(
  {
    'accept-encoding': fc.constantFrom('gzip', 'br', 'deflate, gzip;q=0', '*', 'identity;q=0', 'x'),
    'if-none-match': fc.oneof(
      fc.constantFrom('*', 'W/"x"', '"abc"'),
      fc.string({ maxLength: 20 }).map((value) => `"${value.replace(/[^\x20-\x7e]/g, '')}"`),
    ),
    'if-modified-since': fc.constantFrom('Thu, 01 Jan 1970 00:00:00 GMT', 'garbage'),
    range: fc.constantFrom('bytes=0-10', 'bytes=-5', 'bytes=999999-', 'lines=1-2'),
    origin: fc.constantFrom('https://example.org', 'null'),
    accept: fc.constantFrom('application/json', 'text/html', '*/*', 'application/x-git-upload-pack-result'),
    'git-protocol': fc.constantFrom('version=2', 'version=1', 'garbage'),
    'content-type': fc.constantFrom('application/json', 'application/x-git-upload-pack-request', 'text/plain'),
    'content-encoding': fc.constantFrom('gzip', 'br', 'identity'),
  },
  { requiredKeys: [] },
);

/**
 * Requests over `routes`: each a registered route with its parameters filled from `values` or
 * generated, an optional query, random headers, and mostly the route's own method.
 */
export function fuzzRequestArbitrary(routes: readonly RouteTemplate[], values: FuzzValues): fc.Arbitrary<FuzzRequest> {
  const templates = [...new Set(routes.map((route) => route.url))];
  const routeArbitrary = fc.constantFrom(...templates).chain((url) => {
    const parts = url.split(/(:[A-Za-z]+|\*)/).filter((part) => part !== '');
    const filled = parts.map((part) =>
      part === '*' ? parameterArbitrary('*', values) : part.startsWith(':') ? parameterArbitrary(part.slice(1), values) : fc.constant(part),
    );
    const own = routes.filter((route) => route.url === url).map((route) => route.method);
    return fc.tuple(
      fc.tuple(...filled).map((pieces) => pieces.join('')),
      fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...own) }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) }),
    );
  });
  return fc
    .tuple(routeArbitrary, queryArbitrary, headersArbitrary, fc.option(fc.uint8Array({ maxLength: 64 }), { nil: undefined }))
    .map(([[path, method], query, headers, body]) => ({
      method,
      path: `${path}${query}`,
      headers,
      body: method === 'GET' || method === 'HEAD' || body === undefined ? undefined : Buffer.from(body),
    }));
}

/**
 * Node's client sends the body of a DELETE, OPTIONS or TRACE without a length unless told one,
 * and the server then reads those bytes as the next request: frame every body.
 */
function framedHeaders(request: FuzzRequest): Record<string, string> {
  return request.body === undefined ? { ...request.headers } : { ...request.headers, 'content-length': String(request.body.length) };
}

/** Sends one request with its path written as given; never throws for HTTP-level answers. */
export function sendFuzzRequest(baseUrl: string, request: FuzzRequest, agent?: Agent): Promise<FuzzAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, path: request.path, method: request.method, headers: framedHeaders(request), agent }, (res) => {
      const chunks: Buffer[] = [];
      const answer = (): FuzzAnswer => ({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
      // An event stream never ends by design: its first chunk (the `: ready` comment) is the answer.
      const stream = res.statusCode === 200 && String(res.headers['content-type'] ?? '').startsWith('text/event-stream');
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        if (!stream) return;
        resolve(answer());
        req.destroy();
      });
      res.on('end', () => resolve(answer()));
      res.on('error', reject);
    });
    req.setTimeout(30_000, () => req.destroy(new Error(`no answer in 30 s: ${request.method} ${request.path}`)));
    req.on('error', reject);
    req.end(request.body);
  });
}

/** What a private repository is, for {@link findFuzzProblem}. */
export interface PrivateData {
  /** RIDs of private repositories, `z…` form. */
  readonly rids: readonly string[];
  /** Strings only a private repository holds (its RID, its identity commit id). */
  readonly secrets: readonly string[];
  /**
   * Path prefixes of node-scoped routes that report stored rows for any RID unfiltered
   * (docs/decisions.md, "Private == absent": policies, inventories, stats): their bodies may name a private RID.
   */
  readonly unfilteredPrefixes: readonly string[];
}

/**
 * What is wrong with an answer, or null: a 5xx; an error without the `{"error","code"}` JSON
 * body (HEAD: no body; 413 on JSON blob routes: `[]`); a request naming a private repository
 * in its path answered with anything but an error (CORS preflights aside); a body holding a private secret.
 */
export function findFuzzProblem(request: FuzzRequest, answer: FuzzAnswer, hidden: PrivateData): string | null {
  if (answer.status >= 500) return `status ${answer.status}`;
  const text = answer.body.toString('utf8');
  if (answer.status >= 400 && request.method !== 'HEAD') {
    const type = String(answer.headers['content-type'] ?? '');
    if (!type.startsWith('application/json')) return `error answered as ${type || 'no content type'}`;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return 'error body is not JSON';
    }
    const plain =
      typeof body === 'object' &&
      body !== null &&
      typeof (body as { error?: unknown }).error === 'string' &&
      (body as { code?: unknown }).code === answer.status &&
      Object.keys(body).length === 2;
    const tooLarge = answer.status === 413 && Array.isArray(body) && body.length === 0;
    if (!plain && !tooLarge) return `error body ${text.slice(0, 200)}`;
  }
  // In the path only: a query may search for anything, and listings are checked by `secrets`.
  const path = safeDecode(request.path.split('?')[0] ?? '');
  if (hidden.unfilteredPrefixes.some((prefix) => path.startsWith(prefix))) return null;
  // A CORS preflight (OPTIONS) answers every path alike, without a body.
  const named = hidden.rids.some((rid) => path.includes(rid)) && request.method !== 'OPTIONS';
  if (named && answer.status < 400) return `private repository answered ${answer.status}`;
  const leaked = hidden.secrets.find((secret) => text.includes(secret));
  if (leaked !== undefined) return `body contains private data ${leaked}`;
  return null;
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
