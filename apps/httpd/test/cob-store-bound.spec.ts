import { COB_STORE_BYTES_PER_OBJECT, type CobEvaluation } from '@forge-httpd/cob';
import { createIssue, setIssueState } from '@forge-httpd/cob/write';
import { type BuiltHome, buildNodeHome, peerByAlias, repositoryByName } from '@forge-httpd/builder';
import { CobEvaluations } from '../src/cobs/cob-evaluations.js';
import { CobStoreService } from '../src/cobs/cob-store.service.js';
import { getJson, makeTempDir, removeTempDir, startTestServer, type TestServer } from './support/index.js';
import { eventually } from './support/faults.js';

// COB stores under the memory budget (issue 14): evaluated issues and patches were kept for
// every repository ever served. Now the least recently viewed stores are dropped past their
// share of the budget; a repository viewed again is evaluated again (or read back from the
// cache directory), and its answers never change.

const T0 = 1_700_000_000;
/** Issues per repository: one store (~250 KB estimated) fits the share of a 1 MiB budget, two do not. */
const ISSUES = 120;
const REPOS = ['north', 'south'];
/**
 * Issues of a third repository, for the cache directory's test: with views let go once
 * written there, a store of 120 issues weighs ~100 KB, so north and south fit the share
 * together; this one does not fit beside them (~165 KB).
 */
const EAST_ISSUES = 200;

let dir: string;
let built: BuiltHome;

beforeAll(async () => {
  dir = await makeTempDir();
  built = await buildNodeHome({ home: `${dir}/home`, seed: 'b'.repeat(64), alias: 'alice', repos: [...REPOS, 'east', 'plain'].map((name) => ({ name })) });
  const alice = peerByAlias(built.context, 'alice');
  let time = T0;
  for (const [name, issues] of [...REPOS.map((name) => [name, ISSUES] as const), ['east', EAST_ISSUES] as const]) {
    const gitDir = repositoryByName(built, name).gitDir;
    const as = () => ({ gitDir, keyPair: alice.keyPair, alias: 'alice', time: ++time, flavour: 'forge' as const });
    for (let i = 0; i < issues; i += 1) {
      const issue = await createIssue(as(), { title: `${name} ${i}`, description: '' });
      if (i % 3 === 0) await setIssueState(as(), { issue, state: { status: 'closed', reason: 'solved' } });
    }
  }
  // ~600 COB writes, each a few git processes: ~80 s alone on 2 cores, more beside other work.
}, 360_000);

afterAll(() => removeTempDir(dir));

const repoPath = (name: string): string => `/api/v1/repos/${repositoryByName(built, name).rid}`;

async function withServer<T>(
  options: { memoryBudgetMiB?: number; cacheDir?: string },
  use: (server: TestServer, evaluated: CobEvaluation[]) => Promise<T>,
): Promise<T> {
  // No rendered answers kept: each visit's issue page reaches the stores, as these tests are about them.
  const server = await startTestServer({ home: built.home, responseCacheBytes: 0, ...options });
  const evaluated: CobEvaluation[] = [];
  server.server.app.get(CobEvaluations).listen((evaluation) => evaluated.push(evaluation));
  try {
    return await use(server, evaluated);
  } finally {
    await server.close();
  }
}

/** The repository page (its counts need every issue) and the closed issues, as text. */
async function visit(server: TestServer, name: string): Promise<string[]> {
  const answers: string[] = [];
  for (const suffix of ['', '/issues?status=closed&perPage=50']) {
    const response = await getJson(`${server.baseUrl}${repoPath(name)}${suffix}`);
    expect(response.status).toBe(200);
    answers.push(response.text);
  }
  return answers;
}

const issueEvaluations = (evaluated: readonly CobEvaluation[]): number => evaluated.filter((e) => e.typeName === 'xyz.forge.issue').length;

describe('COB stores under the memory budget', () => {
  it('keeps every viewed repository while the share holds them (the default budget)', async () => {
    await withServer({}, async (server, evaluated) => {
      const first = await visit(server, 'north');
      await visit(server, 'south');
      expect(issueEvaluations(evaluated)).toBe(2 * ISSUES);
      expect(await visit(server, 'north')).toEqual(first);
      expect(issueEvaluations(evaluated)).toBe(2 * ISSUES);
      // A repository without issues or patches leaves no store behind.
      expect(JSON.parse((await visit(server, 'plain'))[1] as string)).toEqual([]);
      expect(server.server.app.get(CobStoreService).stats().stores).toBe(2);
    });
  });

  it('drops the least recently viewed store past its share, and answers the same after', async () => {
    await withServer({ memoryBudgetMiB: 1 }, async (server, evaluated) => {
      const cobs = server.server.app.get(CobStoreService);
      const north = await visit(server, 'north');
      expect(issueEvaluations(evaluated)).toBe(ISSUES);
      // One store fits the share.
      expect(cobs.stats().bytes).toBeLessThanOrEqual(cobs.stats().maxBytes);
      const south = await visit(server, 'south');
      expect(issueEvaluations(evaluated)).toBe(2 * ISSUES);
      // Viewing north again drops south (the least recently viewed), never the store in use.
      expect(await visit(server, 'north')).toEqual(north);
      expect(issueEvaluations(evaluated)).toBe(3 * ISSUES);
      expect(cobs.stats().stores).toBe(1);
      expect(cobs.stats().bytes).toBeGreaterThan(0);
      expect(await visit(server, 'south')).toEqual(south);
      expect(issueEvaluations(evaluated)).toBe(4 * ISSUES);
      expect(north.join()).not.toEqual(south.join());
    });
  });

  it('answers concurrent requests to repositories that push each other out', async () => {
    const reference = await withServer({}, async (server) => ({ north: await visit(server, 'north'), south: await visit(server, 'south') }));
    await withServer({ memoryBudgetMiB: 1 }, async (server) => {
      const names = Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? 'north' : 'south'));
      const answers = await Promise.all(names.map((name) => visit(server, name)));
      for (const [i, name] of names.entries()) expect(answers[i]).toEqual(reference[name]);
      expect(server.server.app.get(CobStoreService).stats().stores).toBeLessThanOrEqual(2);
    });
  });

  it('weighs a store by what was evaluated after its view', async () => {
    await withServer({}, async (server) => {
      // One request: the view comes first, the 120 evaluations after it.
      expect((await getJson(`${server.baseUrl}${repoPath('north')}`)).status).toBe(200);
      expect(server.server.app.get(CobStoreService).stats().bytes).toBeGreaterThanOrEqual(ISSUES * COB_STORE_BYTES_PER_OBJECT);
    });
  });

  it('lets views go once written to the cache directory, and reads a dropped store back from it', async () => {
    const reference = await withServer({}, async (server) => ({ north: await visit(server, 'north'), south: await visit(server, 'south') }));
    const cacheDir = `${dir}/cache`;
    await withServer({ memoryBudgetMiB: 1, cacheDir }, async (server, evaluated) => {
      const cobs = server.server.app.get(CobStoreService);
      const north = await visit(server, 'north');
      const south = await visit(server, 'south');
      expect(issueEvaluations(evaluated)).toBe(2 * ISSUES);
      // Written and let go: views are read back per page, the same answers, nothing evaluated
      // again. Whether north was dropped meanwhile depends on whether south's views were
      // written before its second request (a race with the client), so only the views count.
      await eventually(async () => cobs.stats().views === 0);
      expect(cobs.stats().bytes).toBeLessThan(2 * ISSUES * COB_STORE_BYTES_PER_OBJECT);
      expect(await visit(server, 'north')).toEqual(north);
      expect(await visit(server, 'south')).toEqual(south);
      expect([north, south]).toEqual([reference.north, reference.south]);
      expect(issueEvaluations(evaluated)).toBe(2 * ISSUES);
      // Without their views, the two stores that did not fit together fit now.
      expect(cobs.stats().stores).toBe(2);
      // A third store does not fit beside them: the least recently viewed ones are dropped,
      // their evaluations read back from the cache directory when viewed again.
      await visit(server, 'east');
      expect(issueEvaluations(evaluated)).toBe(2 * ISSUES + EAST_ISSUES);
      await eventually(async () => cobs.stats().stores < 3);
      expect(await visit(server, 'north')).toEqual(north);
      expect(await visit(server, 'south')).toEqual(south);
      expect(issueEvaluations(evaluated)).toBe(2 * ISSUES + EAST_ISSUES);
    });
  });
});
