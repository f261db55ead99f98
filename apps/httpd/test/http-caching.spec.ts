import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type NodeHome, type Oid, openNodeHome } from '@forge-httpd/storage';
import { updateRefs } from '@forge-httpd/storage/write';
import { type Rid, ridFromOid } from '@forge-httpd/identity';
import { type BuiltHome, buildNodeHome, recordSeedingPolicy, repositoryByName, updateIdentity } from '@forge-httpd/builder';
import { type ScratchCommit, writeScratchHistory } from '@forge-httpd/builder/scratch';
import { createApp } from '../src/app.factory.js';
import { ServerConfig } from '../src/config/server-config.js';
import { HttpCaching } from '../src/response-cache/http-caching.js';
import { getUndecoded as raw, makeTempDir, removeTempDir, SettleClock } from './support/index.js';
import { StorageRuntime } from '@forge-httpd/storage';

const runtime = new StorageRuntime();

const T = 1_700_000_000;
const CORS_VARY = 'origin, access-control-request-method, access-control-request-headers';
const NOT_FOUND = '{"error":"Not Found","code":404}';
const lines = (word: string): string => Array.from({ length: 600 }, (_, i) => `${word} line ${i}\n`).join('');
const COMMITS: ScratchCommit[] = [
  {
    message: 'Add files\n',
    time: T,
    changes: [
      { path: 'README.md', content: '# Cached\n' },
      { path: 'data.txt', content: lines('first') },
      { path: 'src/a.txt', content: 'a\n' },
      { path: 'over.txt', content: 'o'.repeat(4_194_305) },
    ],
  },
  { message: 'Edit data\n', time: T + 100, changes: [{ path: 'data.txt', content: lines('second') }] },
];

/** The real app over `home`, listening on an ephemeral port, with a chosen cache bound. */
async function serve(homeDir: string, responseCacheBytes?: number): Promise<{ url: string; caching: HttpCaching; close(): Promise<void> }> {
  const config = ServerConfig.create({
    home: homeDir,
    homeSource: 'flag',
    flavour: 'forge',
    flavourReason: 'test',
    socketPath: join(homeDir, 'node', 'none.sock'),
    listen: { kind: 'tcp', host: '127.0.0.1', port: 0 },
    version: '0.0.0-test',
  });
  const home: NodeHome = await openNodeHome({ runtime, home: homeDir, flavour: 'forge', socketPath: config.socketPath, log: () => undefined, now: clock.now });
  const app: NestFastifyApplication = await createApp({ config, home, logger: false, responseCacheBytes });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    caching: app.get(HttpCaching),
    close: async () => {
      await app.close();
      await home.close();
    },
  };
}

const clock = new SettleClock();
let dir: string;
let built: BuiltHome;
let ids: Oid[];
let server: Awaited<ReturnType<typeof serve>>;

beforeAll(async () => {
  dir = await makeTempDir();
  ids = (await writeScratchHistory(join(dir, 'source.git'), COMMITS)) as Oid[];
  const history = { kind: 'import' as const, from: join(dir, 'source.git'), sourceRef: 'refs/heads/master' };
  built = await buildNodeHome({
    home: join(dir, 'home'),
    seed: 'ca'.repeat(32),
    alias: 'seed',
    time: T,
    repos: ['files', 'doomed', 'deleted', 'moving'].map((name) => ({ name, history })),
  });
  server = await serve(built.home);
  // Refs written this instant are not trusted yet (coarse timestamps): move the clock past that.
  clock.settle();
}, 60_000);
afterAll(async () => {
  await server?.close();
  await removeTempDir(dir);
});

const path = (route: string, name = 'files'): string => `/api/v1/repos/${repositoryByName(built, name).rid}${route}`;
const routes = (): Record<string, string> => ({
  tree: `/tree/${ids[1]}/`,
  subtree: `/tree/${ids[1]}/src`,
  blob: `/blob/${ids[1]}/data.txt`,
  readme: `/readme/${ids[1]}`,
  commit: `/commits/${ids[1]}`,
  diff: `/diff/${ids[0]}/${ids[1]}`,
  stats: `/stats/tree/${ids[1]}`,
  history: `/commits?parent=${ids[1]}`,
});

describe('the response cache', () => {
  it.each(['tree', 'subtree', 'blob', 'readme', 'commit', 'diff', 'stats', 'history'])(
    'serves a repeated %s request from the cache with identical status, headers and body',
    async (name) => {
      const url = server.url + path(routes()[name] ?? '');
      const first = await raw(url);
      const before = server.caching.stats();
      const second = await raw(url);
      expect(server.caching.stats().hits).toBe(before.hits + 1);
      expect(first.status).toBe(200);
      expect(second).toEqual(first);
      expect(second.headers['cache-control']).toBe('public, max-age=604800, immutable');
    },
  );

  it('shares one entry between spellings of the same oid and rid', async () => {
    const rid = repositoryByName(built, 'files').rid;
    await raw(`${server.url}/api/v1/repos/${rid}/tree/${ids[0]}/`);
    const before = server.caching.stats().hits;
    const upper = await raw(`${server.url}/api/v1/repos/${rid.slice(4)}/tree/${ids[0]?.toUpperCase()}/`);
    expect(upper.status).toBe(200);
    expect(server.caching.stats().hits).toBe(before + 1);
  });

  it('answers identically in front of the router (exact URL seen before) and through it', async () => {
    const rid = repositoryByName(built, 'files').rid;
    await raw(`${server.url}/api/v1/repos/${rid}/blob/${ids[1]}/data.txt`);
    const spelled = `${server.url}/api/v1/repos/${rid.slice(4)}/blob/${ids[1]?.toUpperCase()}/data.txt`;
    const etag = (await raw(spelled)).headers['etag'] ?? '';
    const variants: Record<string, string>[] = [{}, { 'accept-encoding': 'gzip' }, { 'accept-encoding': 'br' }, { 'if-none-match': etag }];
    for (const headers of variants) {
      for (const method of ['GET', 'HEAD']) {
        const url = `${spelled}?variant=${encodeURIComponent(JSON.stringify(headers))}&method=${method}`;
        const routed = await raw(url, { method, headers });
        const before = server.caching.stats();
        const front = await raw(url, { method, headers });
        expect(server.caching.stats()).toMatchObject({ hits: before.hits + 1, frontHits: before.frontHits + 1 });
        expect(front).toEqual(routed);
      }
    }
  });

  it('does not cache the moving commit list, errors (which have no ETag) or malformed requests', async () => {
    const before = server.caching.stats();
    for (const route of ['/commits', '/commits?parent=xyz', `/tree/${ids[1]}/nope`, `/tree/${'0'.repeat(40)}/`]) {
      await raw(server.url + path(route));
      const again = await raw(server.url + path(route));
      expect(again.status === 200 || again.headers['etag'] === undefined).toBe(true);
    }
    expect(server.caching.stats().hits).toBe(before.hits);
  });

  it('caches the 413 [] of a too large blob with its no-cache header', async () => {
    const url = server.url + path(`/blob/${ids[1]}/over.txt`);
    const first = await raw(url);
    const second = await raw(url);
    expect([second.status, second.body.toString(), second.headers['cache-control']]).toEqual([413, '[]', 'no-cache']);
    expect(second).toEqual(first);
    expect(second.headers['etag']).toBeUndefined();
  });

  it('keeps HEAD equal to GET without a body, and OPTIONS a preflight, also for cached URLs', async () => {
    const url = server.url + path(routes()['blob'] ?? '');
    for (const encoding of ['identity', 'gzip']) {
      const get = await raw(url, { headers: { 'accept-encoding': encoding } });
      const head = await raw(url, { method: 'HEAD', headers: { 'accept-encoding': encoding } });
      expect(head.body.length).toBe(0);
      expect(head.headers).toEqual(get.headers);
    }
    const preflight = await raw(url, { method: 'OPTIONS' });
    expect([preflight.status, preflight.body.length, preflight.headers['access-control-allow-methods'], preflight.headers['vary']]).toEqual([
      200,
      0,
      'GET',
      CORS_VARY,
    ]);
  });
});

describe('ETags', () => {
  it.each([
    ['a cached route', () => path(routes()['tree'] ?? '')],
    ['an uncached route', () => '/api/v1/node'],
  ])('answer If-None-Match on %s with 304, no body, and the CORS and caching headers', async (_name, route) => {
    const first = await raw(server.url + route());
    const etag = first.headers['etag'] ?? '';
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const answer = await raw(server.url + route(), { headers: { 'if-none-match': ifNoneMatch } });
      expect([answer.status, answer.body.length, answer.headers['etag'], answer.headers['content-type']]).toEqual([304, 0, etag, undefined]);
      const kept = ['access-control-allow-origin', 'vary', 'cache-control'];
      expect(kept.map((name) => answer.headers[name])).toEqual(kept.map((name) => first.headers[name]));
    }
    const other = await raw(server.url + route(), { headers: { 'if-none-match': '"something-else"' } });
    expect(other).toEqual(first);
  });
});

describe('compression', () => {
  it.each([
    ['gzip', 'gzip, deflate', gunzipSync],
    ['br', 'gzip, deflate, br', brotliDecompressSync],
  ] as const)('sends %s bodies that decompress to the identical JSON, on a miss and on a hit', async (coding, accept, decode) => {
    const url = server.url + path(routes()['diff'] ?? '', 'moving');
    const identity = await raw(url);
    expect(identity.body.length).toBeGreaterThan(4096);
    expect(identity.headers['vary']).toBe(`${CORS_VARY}, accept-encoding`);
    for (let i = 0; i < 2; i += 1) {
      const compressed = await raw(url, { headers: { 'accept-encoding': accept } });
      expect(compressed.headers['content-encoding']).toBe(coding);
      expect(compressed.headers['vary']).toBe(`${CORS_VARY}, accept-encoding`);
      expect(compressed.headers['etag']).toBe(`${identity.headers['etag']?.slice(0, -1)}-${coding}"`);
      expect(decode(compressed.body).equals(identity.body)).toBe(true);
    }
  });

  it('compresses an answer built again once, from its second request on, and anew once its bytes changed', async () => {
    // Policies are read per request, never cached: 60 rows make a body worth compressing.
    const rids = Array.from({ length: 60 }, (_, i) => ridFromOid(i.toString(16).padStart(40, 'c')));
    for (const rid of rids.slice(0, 59)) recordSeedingPolicy(built.context, { rid, policy: { policy: 'allow', scope: 'followed' } });
    const url = server.url + '/api/v1/node/policies/repos';
    const identity = await raw(url);
    expect(identity.body.length).toBeGreaterThan(4096);
    const before = server.caching.compressedBodyStats();
    const answers = [];
    for (let i = 0; i < 3; i += 1) answers.push(await raw(url, { headers: { 'accept-encoding': 'gzip' } }));
    for (const answer of answers) {
      expect(answer.headers['etag']).toBe(`${identity.headers['etag']?.slice(0, -1)}-gzip"`);
      expect(gunzipSync(answer.body).equals(identity.body)).toBe(true);
    }
    // Kept on the second request, served from memory on the third.
    expect(server.caching.compressedBodyStats()).toMatchObject({ entries: before.entries + 1, hits: before.hits + 1 });
    recordSeedingPolicy(built.context, { rid: rids[59] as Rid, policy: { policy: 'block' } });
    const changed = await raw(url);
    expect(changed.headers['etag']).not.toBe(identity.headers['etag']);
    for (let i = 0; i < 3; i += 1) {
      const answer = await raw(url, { headers: { 'accept-encoding': 'gzip' } });
      expect(answer.headers['etag']).toBe(`${changed.headers['etag']?.slice(0, -1)}-gzip"`);
      expect(gunzipSync(answer.body).equals(changed.body)).toBe(true);
    }
    expect(JSON.parse(changed.body.toString())).toContainEqual({ rid: rids[59], policy: { policy: 'block' } });
  });

  it('leaves small bodies and unwilling clients alone, with the CORS vary only', async () => {
    const small = await raw(server.url + path(routes()['subtree'] ?? ''), { headers: { 'accept-encoding': 'gzip, br' } });
    expect([small.headers['content-encoding'], small.headers['vary']]).toEqual([undefined, CORS_VARY]);
    const refused = await raw(server.url + path(routes()['blob'] ?? ''), { headers: { 'accept-encoding': 'br;q=0, gzip;q=0' } });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(refused.body.toString())).toMatchObject({ path: 'data.txt' });
  });
});

describe('visibility and freshness of cached answers', () => {
  it('answers 404 for a cached URL once the repository became private', async () => {
    const repo = repositoryByName(built, 'doomed');
    const url = server.url + path(routes()['tree'] ?? '', 'doomed');
    expect([(await raw(url)).status, (await raw(url)).status]).toEqual([200, 200]);
    await updateIdentity(built.context, repo, {
      author: built.context.local,
      title: 'Hide',
      document: { ...repo.document, visibility: { type: 'private' } },
    });
    const hidden = await raw(url);
    expect([hidden.status, hidden.body.toString()]).toEqual([404, NOT_FOUND]);
  });

  it('answers 404 for a cached URL once the repository was removed from storage', async () => {
    const url = server.url + path(routes()['readme'] ?? '', 'deleted');
    expect((await raw(url)).status).toBe(200);
    await rm(repositoryByName(built, 'deleted').gitDir, { recursive: true, force: true });
    const gone = await raw(url);
    expect([gone.status, gone.body.toString()]).toEqual([404, NOT_FOUND]);
  });

  it('renders the commit again when its branches changed', async () => {
    const repo = repositoryByName(built, 'moving');
    const url = server.url + path(`/commits/${ids[0]}`, 'moving');
    const before = JSON.parse((await raw(url)).body.toString()) as { branches: string[] };
    await raw(url);
    await updateRefs(repo.gitDir, [{ name: 'refs/heads/feature/extra', oid: ids[0] as Oid }]);
    const after = JSON.parse((await raw(url)).body.toString()) as { branches: string[] };
    expect(after.branches).toEqual([...before.branches, 'refs/heads/feature/extra'].sort());
  });
});

/** The tree, subtree, readme, stats, history, commit and blob pages of each commit, in that order. */
function pageUrlsOfEveryCommit(base: string): string[] {
  const names = ['tree', 'subtree', 'readme', 'stats', 'history', 'commit', 'blob'];
  return ids.flatMap((id) => names.map((name) => base + path(routes()[name]?.replaceAll(ids[1] ?? '', id) ?? '')));
}

/** Index, in {@link pageUrlsOfEveryCommit}, of the second commit's tree: small enough to keep under a tiny bound. */
const SECOND_COMMIT_TREE = 7;

/** Serves the built home with a response cache of `bound` bytes for `use`, then closes it. */
async function withTinyBound(bound: number, use: (small: Awaited<ReturnType<typeof serve>>, urls: string[]) => Promise<void>): Promise<void> {
  const small = await serve(built.home, bound);
  try {
    await use(small, pageUrlsOfEveryCommit(small.url));
  } finally {
    await small.close();
  }
}

describe('the byte bound', () => {
  it('past half a tiny bound, keeps pages asked for again and not pages asked for once', async () => {
    const bound = 24 * 1024;
    await withTinyBound(bound, async (small, urls) => {
      const [hot, ...crawl] = urls;
      if (hot === undefined) throw new Error('no URLs');
      const hotBody = (await raw(hot)).body;
      // A crawl: every other page asked for once, the hot page again in between.
      for (const url of crawl) {
        expect((await raw(url)).status).toBe(200);
        expect((await raw(hot)).body.equals(hotBody)).toBe(true);
      }
      const afterCrawl = small.caching.stats();
      expect(afterCrawl.deferred).toBeGreaterThan(0);
      // Pages asked for once stop being kept past half the bound (an entry is at most a quarter).
      expect(afterCrawl.bytes).toBeLessThan((bound * 3) / 4);
      expect(afterCrawl.evictions).toBe(0);
      // The hot page is answered from the cache, and a crawl page asked for again is kept.
      await raw(hot);
      expect(small.caching.stats().hits).toBe(afterCrawl.hits + 1);
      // The blob page is over a quarter of the bound, so never kept; a tree page is.
      const again = urls[SECOND_COMMIT_TREE] ?? '';
      const body = (await raw(again)).body;
      const hitsBefore = small.caching.stats().hits;
      const third = await raw(again);
      expect(third.body.equals(body)).toBe(true);
      expect(small.caching.stats().hits).toBe(hitsBefore + 1);
    });
  });

  it('past half a tiny bound, answers a burst of requests for a new page alike and keeps it', async () => {
    await withTinyBound(24 * 1024, async (small, urls) => {
      // Asked for by eight clients at once after the others filled half the bound.
      const burst = urls[SECOND_COMMIT_TREE] ?? '';
      for (const url of urls.filter((other) => other !== burst)) await raw(url);
      expect(small.caching.stats().deferred).toBeGreaterThan(0);
      const answers = await Promise.all(Array.from({ length: 8 }, () => raw(burst)));
      expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
      expect(answers.every((answer) => answer.body.equals(answers[0]?.body ?? Buffer.alloc(0)))).toBe(true);
      const hits = small.caching.stats().hits;
      expect((await raw(burst)).body.equals(answers[0]?.body ?? Buffer.alloc(0))).toBe(true);
      expect(small.caching.stats().hits).toBe(hits + 1);
    });
  });

  it('holds with a tiny bound, evicting the least recently used answers', async () => {
    const bound = 16 * 1024;
    await withTinyBound(bound, async (small, urls) => {
      const bodies = new Map<string, Buffer>();
      for (const url of [...urls, ...urls, ...urls]) {
        const answer = await raw(url);
        expect([answer.status, answer.body.equals(bodies.get(url) ?? answer.body)]).toEqual([200, true]);
        bodies.set(url, answer.body);
        expect(small.caching.stats().bytes).toBeLessThanOrEqual(bound);
      }
      expect(Math.min(small.caching.stats().evictions, small.caching.stats().entries)).toBeGreaterThan(0);
    });
  });
});
