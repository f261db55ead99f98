import { join } from 'node:path';
import type { Rid } from '@forge-httpd/identity';
import { type BuiltHome, repositoryByName } from '@forge-httpd/builder';
import { warmUp } from '../src/warm-up/warm-up.js';
import { VISITED_REPOSITORIES_FILE, VisitedRepositories } from '../src/warm-up/visited-repositories.js';
import { ABSENT_RID, buildFixtureHome, getJson, makeTempDir, removeTempDir, startTestServer } from './support/index.js';

// After a restart the server warms up, beside the pinned repositories, those its visitors asked
// for most before it stopped (kept in the cache directory), so their first pages are ready.

let dir: string;
let built: BuiltHome;
const rid = (name: string): Rid => repositoryByName(built, name).rid;
const warmedRepositories = (paths: readonly string[]): Set<string> =>
  new Set(paths.map((path) => /^\/api\/v1\/repos\/(rad:[^/]+)/.exec(path)?.[1]).filter((found): found is string => found !== undefined));

beforeAll(async () => {
  dir = await makeTempDir();
  built = await buildFixtureHome(join(dir, 'home'));
}, 60_000);

afterAll(async () => {
  await removeTempDir(dir);
});

describe('repositories visited before a restart', () => {
  it('are kept in the cache directory and warmed up after the pinned ones at the next start', async () => {
    const cacheDir = join(dir, 'cache');
    const before = await startTestServer({ home: built.home, cacheDir });
    try {
      const beta = `/api/v1/repos/${rid('beta')}`;
      for (const page of ['', '/commits', '/remotes', '/issues']) expect((await getJson(`${before.baseUrl}${beta}${page}`)).status).toBe(200);
      // Spelled without `rad:`: the same repository.
      expect((await getJson(`${before.baseUrl}/api/v1/repos/${rid('gamma-alpha').slice(4)}`)).status).toBe(200);
      expect((await getJson(`${before.baseUrl}/api/v1/repos/${rid('gamma-alpha')}/commits`)).status).toBe(200);
      // A private and an absent repository answer 404: never counted, never warmed.
      for (let i = 0; i < 5; i += 1) {
        expect((await getJson(`${before.baseUrl}/api/v1/repos/${rid('secret')}/commits`)).status).toBe(404);
        expect((await getJson(`${before.baseUrl}/api/v1/repos/${ABSENT_RID}`)).status).toBe(404);
      }
    } finally {
      await before.close();
    }
    expect(new VisitedRepositories(join(cacheDir, VISITED_REPOSITORIES_FILE)).mostVisited()).toEqual([rid('beta'), rid('gamma-alpha')]);

    const after = await startTestServer({ home: built.home, cacheDir });
    try {
      const visited = after.server.visitedRepositories;
      const warming = warmUp(after.server.address, after.server.home, undefined, { visitedRepositories: () => visited.mostVisited() });
      visited.pauseWhile(warming);
      const report = await warming;
      const paths = report.requests.map((request) => request.path);
      // The pinned public ones (config order), then the visited ones by visits.
      expect([...warmedRepositories(paths)]).toEqual([rid('alpha'), rid('blocked'), rid('beta'), rid('gamma-alpha')]);
      const beta = `/api/v1/repos/${rid('beta')}`;
      for (const page of ['', '/commits', '/issues', '/patches']) expect(report.requests).toContainEqual({ path: `${beta}${page}`, status: 200 });
      expect(paths.some((path) => path.includes(rid('secret')) || path.includes(ABSENT_RID))).toBe(false);
      // The warm-up's own requests were not visits: the order is still the visitors'.
      expect(visited.mostVisited()).toEqual([rid('beta'), rid('gamma-alpha')]);
    } finally {
      await after.close();
    }
  });

  it('are not warmed when they became private', async () => {
    const server = await startTestServer({ home: built.home });
    try {
      const report = await warmUp(server.server.address, server.server.home, undefined, { visitedRepositories: () => [rid('secret'), ABSENT_RID] });
      expect([...warmedRepositories(report.requests.map((request) => request.path))]).toEqual([rid('alpha'), rid('blocked')]);
    } finally {
      await server.close();
    }
  });
});
