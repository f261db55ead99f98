import type { Issue, Patch } from '@forge-httpd/api-types';
import { commentIssue, createIssue, createPatch, setPatchState } from '@forge-httpd/cob/write';
import type { Oid } from '@forge-httpd/storage';
import { type BuiltHome, peerByAlias, recordKnownNode, updateIdentity } from '@forge-httpd/builder';
import { buildCobHome, cobWriter, getUndecoded, makeTempDir, removeTempDir, SettleClock, startTestServer, type TestServer } from './support/index.js';

let dir: string;
let built: BuiltHome;
let server: TestServer;
const ids: Record<string, Oid> = {};
const clock = new SettleClock();
const { repo, as, push } = cobWriter(() => built);

const url = (path: string): string => `${server.baseUrl}/api/v1/repos/${repo().rid}${path}`;

/** The answer to `path` and whether the response cache gave it (its line in the request log, which leaves out the query). */
async function get(path: string): Promise<{ status: number; body: string; etag: string | undefined; cache: unknown }> {
  const logged = server.requestLog.length;
  const response = await getUndecoded(url(path));
  // The line is written once the answer is sent, which may be after the client has read it.
  for (let waited = 0; server.requestLog.length === logged && waited < 2_000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
  const line = server.requestLog[logged];
  expect(line?.['path']).toBe(`/api/v1/repos/${repo().rid}${path.split('?')[0] ?? ''}`);
  return { status: response.status, body: response.body.toString(), etag: response.headers['etag'], cache: line?.['cache'] };
}

const json = <T>(answer: { body: string }): T => JSON.parse(answer.body) as T;

beforeAll(async () => {
  dir = await makeTempDir();
  built = await buildCobHome(dir, { forks: ['bob', 'eve'] });
  ids['crash'] = await createIssue(as('bob'), { title: 'Crash on start', description: 'It crashes.' });
  ids['eve'] = await createIssue(as('eve'), { title: 'Build steps?', description: 'How?' });
  const v1 = await push('bob', 'feature', 'feature.txt');
  ids['feature'] = await createPatch(as('bob'), { title: 'Add feature', description: 'First version', base: repo().head, oid: v1.oid });
  server = await startTestServer({ home: built.home, now: clock.now });
  clock.settle();
}, 60_000);

afterAll(async () => {
  await server?.close();
  await removeTempDir(dir);
});

const pages = (): Record<string, string> => ({
  issues: '/issues?status=all',
  issue: `/issues/${ids['crash']}`,
  patches: '/patches',
  patch: `/patches/${ids['feature']}`,
});

describe('issue and patch answers in the response cache', () => {
  it.each(['issues', 'issue', 'patches', 'patch'])('serves a repeated %s request from the cache, byte for byte', async (name) => {
    const path = pages()[name] ?? '';
    const first = await get(path);
    const second = await get(path);
    expect(first).toMatchObject({ status: 200, cache: 'miss' });
    expect(second).toEqual({ ...first, cache: 'hit' });
  });

  it('keys a listing by its parsed query: spellings of one page share it, other pages do not', async () => {
    await get('/issues?status=all&perPage=1');
    expect((await get('/issues?perPage=01&status=all')).cache).toBe('hit');
    const second = await get('/issues?status=all&perPage=1&page=1');
    expect(second.cache).toBe('miss');
    expect(json<Issue[]>(second).map((issue) => issue.id)).toEqual([ids['crash']]);
  });

  it('lists a new issue and shows a new comment once written, and keeps them once settled', async () => {
    for (const path of [pages()['issues'], pages()['issue']]) await get(path ?? '');
    const added = await createIssue(as('alice'), { title: 'Docs are outdated', description: 'The README lies.' });
    await commentIssue(as('alice'), { issue: ids['crash'] as Oid, body: 'Which version?' });
    // Just written: rendered anew, and not kept while the refs may still move in this tick.
    const listings = [await get(pages()['issues'] ?? ''), await get(pages()['issues'] ?? '')];
    expect(listings.map((answer) => answer.cache)).toEqual(['miss', 'miss']);
    expect(json<Issue[]>(listings[1] ?? { body: '[]' })[0]?.id).toBe(added);
    const issue = await get(pages()['issue'] ?? '');
    expect(json<Issue>(issue).discussion.map((comment) => comment.body)).toEqual(['It crashes.', 'Which version?']);
    clock.settle();
    const settled = [await get(pages()['issues'] ?? ''), await get(pages()['issues'] ?? '')];
    expect(settled.map((answer) => answer.cache)).toEqual(['miss', 'hit']);
    expect(settled[1]?.body).toBe(listings[1]?.body);
  });

  it('shows a patch state changed by its author', async () => {
    const before = await get(pages()['patch'] ?? '');
    await get(pages()['patch'] ?? '');
    await setPatchState(as('bob'), { patch: ids['feature'] as Oid, state: 'archived' });
    clock.settle();
    const after = await get(pages()['patch'] ?? '');
    expect(after.cache).toBe('miss');
    expect([json<Patch>(before).state.status, json<Patch>(after).state.status]).toEqual(['open', 'archived']);
    expect((await get('/patches')).body).toBe('[]');
  });

  it('names an author by the alias the node learned after the answer was kept', async () => {
    const path = `/issues/${ids['eve']}`;
    const [first] = [await get(path), await get(path)];
    expect(json<Issue>(first ?? { body: '{}' }).author.alias).toBeUndefined();
    recordKnownNode(built.context, { nid: peerByAlias(built.context, 'eve').keyPair.nid, alias: 'eve' });
    const renamed = await get(path);
    expect(renamed.cache).toBe('miss');
    expect(json<Issue>(renamed).author.alias).toBe('eve');
    expect((await get(path)).cache).toBe('hit');
  });

  it('answers 404 for a kept issue once the repository became private', async () => {
    const path = pages()['issue'] ?? '';
    expect([(await get(path)).status, (await get(path)).cache]).toEqual([200, 'hit']);
    await updateIdentity(built.context, repo(), {
      author: built.context.local,
      title: 'Hide',
      document: { ...repo().document, visibility: { type: 'private' } },
    });
    const hidden = await get(path);
    expect([hidden.status, hidden.body]).toEqual([404, '{"error":"Not Found","code":404}']);
  });
});
