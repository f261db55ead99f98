import { getJson, rawRequest, useFixtureServer } from './support/index.js';

const fixture = useFixtureServer();
const CORS_VARY = 'origin, access-control-request-method, access-control-request-headers';

describe('CORS', () => {
  it.each([
    ['/api/v1/node', 200],
    ['/api/v1/repos/search', 200],
    ['/api/v1/nothing', 404],
    ['/api/v1/repos/bad', 400],
  ])('adds the CORS headers to GET %s (%d), with or without Origin', async (path, status) => {
    for (const headers of [{}, { origin: 'https://explorer.example' }] as Record<string, string>[]) {
      const response = await getJson(fixture.url(path), { headers });
      expect(response.status).toBe(status);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('vary')).toBe(CORS_VARY);
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });

  it.each(['/api/v1/node', '/api/v1/repos/anything', '/nowhere/at/all', '/'])(
    'answers OPTIONS %s with 200, an empty body and the preflight headers',
    async (path) => {
      const response = await getJson(fixture.url(path), {
        method: 'OPTIONS',
        headers: { origin: 'https://x.example', 'access-control-request-method': 'GET' },
      });
      expect(response.status).toBe(200);
      expect(response.text).toBe('');
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-methods')).toBe('GET');
      expect(response.headers.get('access-control-allow-headers')).toBe('content-type');
      expect(response.headers.get('access-control-max-age')).toBe('86400');
      expect(response.headers.get('vary')).toBe(CORS_VARY);
    },
  );
});

describe('methods', () => {
  const routes = (): string[] => [
    '/',
    '/api/v1',
    '/api/v1/node',
    '/api/v1/repos',
    `/api/v1/repos/${fixture.rid('alpha')}`,
    `/api/v1/nodes/${fixture.nid('bob')}`,
  ];

  it('answers HEAD on every GET route with the GET headers and no body', async () => {
    for (const path of routes()) {
      const get = await getJson(fixture.url(path));
      const head = await getJson(fixture.url(path), { method: 'HEAD' });
      expect(head.status).toBe(get.status);
      expect(head.text).toBe('');
      expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
      expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'));
      expect(head.headers.get('cache-control')).toBe(get.headers.get('cache-control'));
    }
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH'])('answers %s on known routes with 405 and allow: GET, HEAD', async (method) => {
    for (const path of routes()) {
      const response = await getJson(fixture.url(path), {
        method,
        headers: { 'content-type': 'application/json' },
        body: method === 'DELETE' ? undefined : '{"not": "read"',
      });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
      expect(response.text).toBe('{"error":"Method Not Allowed","code":405}');
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
    }
  });

  it('answers other methods on unknown routes with the JSON 404', async () => {
    const response = await getJson(fixture.url('/api/v1/unknown'), { method: 'POST', body: 'x' });
    expect(response.status).toBe(404);
    expect(response.text).toBe('{"error":"Not Found","code":404}');
  });
});

describe('Cache-Control', () => {
  it.each([
    ['/api/v1/node', 'public, max-age=600, must-revalidate'],
    ['/api/v1/repos/search?q=a', 'public, max-age=600, must-revalidate'],
    ['/api/v1/repos?show=all', null],
    ['/api/v1/node/policies/repos', null],
    ['/api/v1/stats', null],
    ['/', null],
  ])('GET %s has Cache-Control %j', async (path, expected) => {
    expect((await getJson(fixture.url(path))).headers.get('cache-control')).toBe(expected);
  });

  it('never puts Cache-Control on an error, even on a cached route', async () => {
    const response = await getJson(fixture.url('/api/v1/repos/search?perPage=x'));
    expect(response.status).toBe(400);
    expect(response.headers.get('cache-control')).toBeNull();
  });
});

// Hostile path segments: each must give a 4xx JSON error body, never a 5xx or an echo of paths.
const HOSTILE_SEGMENTS = [
  '..',
  '%2e%2e',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '..%2F..%2F',
  '--output',
  '-',
  'x'.repeat(5000),
  '%F0%9F%98%80',
  'rad%3Az%F0%9F%98%80',
  '%00',
  '%zz',
  'rad:',
  'rad:z',
  'z',
  '-1',
  'did:key:',
  '%20',
  'rad:z4E3Tikp3riPsjk8stavKjgvLhMz%00',
  'z6MktWkM9vcfysWFq1c2aaLjJ6j4PYYg93TLPswR4qtuoAeT%2F..',
];

const SEGMENT_ROUTES = [
  '/api/v1/repos/{x}',
  '/api/v1/nodes/{x}',
  '/api/v1/nodes/{x}/inventory',
  '/api/v1/delegates/{x}/repos',
  '/api/v1/node/policies/repos/{x}',
];

const HOSTILE_QUERIES = [
  'perPage=',
  'page=',
  'perPage=-1',
  'page=-1',
  'page=1.5',
  'perPage=1e3',
  'perPage=0x10',
  'perPage=%2B1',
  'perPage=99999999999999999999',
  'page=9007199254740992',
  'perPage=1&perPage=1',
  'page=1&page=2',
  'perPage=%F0%9F%98%80',
  'perPage=%00',
];
const HOSTILE_SHOW = ['show=ALL', 'show=', 'show=all&show=all', 'show=..%2F', 'show=pinned%00'];

const QUERY_CASES = [
  ...['/api/v1/repos?{x}', '/api/v1/repos/search?{x}', '/api/v1/delegates/{did}/repos?{x}'].flatMap((route) => HOSTILE_QUERIES.map((query) => [route, query])),
  ...['/api/v1/repos?{x}', '/api/v1/delegates/{did}/repos?{x}'].flatMap((route) => HOSTILE_SHOW.map((query) => [route, query])),
];

function expectClientError(response: { status: number; body: unknown; text: string }): void {
  expect(response.status).toBeGreaterThanOrEqual(400);
  expect(response.status).toBeLessThan(500);
  const body = response.body as { error: unknown; code: unknown };
  expect(typeof body.error).toBe('string');
  expect(body.code).toBe(response.status);
  expect(Object.keys(body)).toEqual(['error', 'code']);
  expect(response.text).not.toMatch(/\/tmp|forge-|node_modules|\bat \w/);
}

describe('hostile input', () => {
  it.each(SEGMENT_ROUTES.flatMap((route) => HOSTILE_SEGMENTS.map((segment) => [route, segment])))(
    '%s with %s answers a 4xx JSON error',
    async (route, segment) => {
      expectClientError(await rawRequest(fixture.server.baseUrl, { path: route.replace('{x}', segment) }));
    },
  );

  it.each(QUERY_CASES)('%s with %s answers 400 naming the parameter', async (route, query) => {
    const path = route.replace('{did}', fixture.did('seed')).replace('{x}', query);
    const response = await rawRequest(fixture.server.baseUrl, { path });
    expectClientError(response);
    expect(response.status).toBe(400);
    const key = query.slice(0, query.indexOf('='));
    expect((response.body as { error: string }).error).toMatch(new RegExp(`^Invalid ${key}: `));
  });

  it.each(['q=', 'q=%00', 'q=..%2F..%2F', 'q=--output', `q=${'x'.repeat(3000)}`, 'q=%F0%9F%98%80', 'q=a+b', 'x=1&x=2', 'show=nonsense'])(
    'search with the odd but valid %s answers 200',
    async (query) => {
      const response = await rawRequest(fixture.server.baseUrl, { path: `/api/v1/repos/search?${query}` });
      expect(response.status).toBe(200);
      expect(Array.isArray(response.body)).toBe(true);
    },
  );

  it('rejects a repeated q', async () => {
    const response = await rawRequest(fixture.server.baseUrl, { path: '/api/v1/repos/search?q=a&q=b' });
    expect(response.body).toEqual({ error: 'Invalid q: given more than once', code: 400 });
  });

  it('keeps serving after a burst of hostile requests', async () => {
    expect((await getJson(fixture.url('/api/v1/repos?show=all'))).status).toBe(200);
    expect(fixture.server.logs.filter((line) => line.startsWith('error'))).toEqual([]);
  });
});
