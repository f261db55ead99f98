import { execFileSync } from 'node:child_process';
import type { Issue, Patch } from '@forge-httpd/api-types';
import type { CobEvaluation } from '@forge-httpd/cob';
import { commentIssue, createIssue, createPatch, mergePatch, setIssueState, setPatchState } from '@forge-httpd/cob/write';
import type { Oid } from '@forge-httpd/storage';
import { type BuiltHome, peerByAlias } from '@forge-httpd/builder';
import { CobEvaluations } from '../src/cobs/cob-evaluations.js';
import { buildCobHome, cobWriter, getJson, makeTempDir, removeTempDir, startTestServer, type TestServer } from './support/index.js';

// Issue and patch pages asked before the whole listing is in memory (issue 14): the server
// evaluates only the objects a page needs, newest first by their root commit's time. Every
// page must be the very page cut from the whole listing, whatever the order of the questions,
// with ties, clock skew, closed objects, forged roots and refs that name no change.

const T0 = 1_700_000_000;
const ISSUES = 36;
const PATCHES = 14;

let dir: string;
let built: BuiltHome;
const writer = cobWriter(() => built);
const ids: Oid[] = [];

const rid = (): string => writer.repo().rid;
const repoPath = (suffix = ''): string => `/api/v1/repos/${rid()}${suffix}`;

/** Times with ties and no order of writing: issue i was opened at T0 + a scrambled minute. */
const openedAt = (i: number): number => T0 + ((i * 7) % 23) * 60;

async function writeObjects(): Promise<void> {
  const { as, push } = writer;
  const authors = ['alice', 'bob', 'eve'];
  for (let i = 0; i < ISSUES; i += 1) {
    const author = authors[i % 3] as string;
    const issue = await createIssue(as(author, { time: openedAt(i) }), { title: `Issue ${i}`, description: `Body ${i}` });
    ids.push(issue);
    // Later changes written with clocks behind the root's: they must not move the issue.
    if (i % 4 === 0) await commentIssue(as('bob', { time: openedAt(i) - 3600 }), { issue, body: `Skewed comment on ${i}` });
    if (i % 3 === 1) await setIssueState(as('alice', { time: T0 + 5000 }), { issue, state: { status: 'closed', reason: 'solved' } });
  }
  // Newest of all, but forged: a page must skip it and still be full.
  await createIssue(as('eve', { time: T0 + 99_999, badSignature: true }), { title: 'Forged', description: 'Not signed by eve' });
  const base = writer.repo().head;
  for (let i = 0; i < PATCHES; i += 1) {
    const author = i % 2 === 0 ? 'bob' : 'eve';
    const tip = await push(author, `p${i}`, `p${i}.txt`);
    const patch = await createPatch(as(author, { time: T0 + ((i * 5) % 7) * 60 }), {
      title: `Patch ${i}`,
      description: '',
      base,
      oid: tip.oid,
      draft: i % 5 === 0,
    });
    if (i % 5 === 2) await setPatchState(as(author), { patch, state: 'archived' });
    if (i % 5 === 3) await mergePatch(as('alice'), { patch, revision: patch, commit: tip.oid });
  }
  // Issue refs whose names are no change: a blob's id and a code commit's id, with real tips.
  const gitDir = writer.repo().gitDir;
  const nid = peerByAlias(built.context, 'bob').keyPair.nid;
  const blob = execFileSync('git', ['-C', gitDir, 'hash-object', '-w', '--stdin'], { input: 'not a change\n' }).toString().trim();
  const prefix = `refs/namespaces/${nid}/refs/cobs/xyz.forge.issue`;
  execFileSync('git', ['-C', gitDir, 'update-ref', `${prefix}/${blob}`, ids[0] as string]);
  execFileSync('git', ['-C', gitDir, 'update-ref', `${prefix}/${base}`, base]);
}

beforeAll(async () => {
  dir = await makeTempDir();
  built = await buildCobHome(dir, { forks: ['bob', 'eve'] });
  await writeObjects();
}, 120_000);

afterAll(() => removeTempDir(dir));

const ISSUE_PAGES = ['open', 'closed', 'all'].flatMap((status) =>
  ['', '&perPage=1', '&page=1&perPage=5', '&page=2&perPage=7', '&perPage=50', '&page=3&perPage=4', '&page=100', '&perPage=0'].map(
    (page) => `/issues?status=${status}${page}`,
  ),
);
const PATCH_PAGES = ['open', 'draft', 'archived', 'merged', 'all'].flatMap((status) =>
  ['', '&perPage=3', '&page=1&perPage=3', '&page=2&perPage=2', '&page=9&perPage=9'].map((page) => `/patches?status=${status}${page}`),
);
const PAGES = ['/issues', '/patches', ...ISSUE_PAGES, ...PATCH_PAGES];

/** A fresh server: nothing evaluated, no cache directory. */
async function freshServer(): Promise<{ server: TestServer; evaluated: CobEvaluation[] }> {
  const server = await startTestServer({ home: built.home });
  const evaluated: CobEvaluation[] = [];
  server.server.app.get(CobEvaluations).listen((evaluation) => evaluated.push(evaluation));
  return { server, evaluated };
}

async function answers(server: TestServer, paths: readonly string[]): Promise<Map<string, unknown>> {
  const result = new Map<string, unknown>();
  for (const path of paths) {
    const response = await getJson(`${server.baseUrl}${repoPath(path)}`);
    expect(response.status).toBe(200);
    result.set(path, response.body);
  }
  return result;
}

/** The pages cut from whole listings: the repository page evaluates everything first (its counts). */
async function wholeListingAnswers(paths: readonly string[], objects = ISSUES + 3 + PATCHES): Promise<Map<string, unknown>> {
  const { server, evaluated } = await freshServer();
  try {
    expect((await getJson(`${server.baseUrl}${repoPath()}`)).status).toBe(200);
    // Every issue (forged and nameless ones too) and every patch.
    expect(evaluated.filter((evaluation) => /\.(issue|patch)$/.test(evaluation.typeName))).toHaveLength(objects);
    return await answers(server, paths);
  } finally {
    await server.close();
  }
}

const issueEvaluations = (evaluated: readonly CobEvaluation[]): number => evaluated.filter((e) => e.typeName.endsWith('.issue')).length;

describe('pages asked before the whole listing is in memory', () => {
  let whole: Map<string, unknown>;

  beforeAll(async () => {
    whole = await wholeListingAnswers(PAGES);
  }, 60_000);

  it('are the pages of the whole listing, newest first with ties by id, forged and nameless objects left out', () => {
    const all = whole.get('/issues?status=all&perPage=50') as Issue[];
    expect(all).toHaveLength(ISSUES);
    // An issue's time is its opening comment's.
    const opened = (issue: Issue): number => issue.discussion[0]?.timestamp ?? Number.NaN;
    const sorted = [...all].sort((a, b) => opened(b) - opened(a) || (a.id < b.id ? -1 : 1));
    expect(all.map((issue) => issue.id)).toEqual(sorted.map((issue) => issue.id));
    expect(new Set(all.map(opened)).size).toBeLessThan(ISSUES);
    expect(new Map(all.map((issue) => [issue.id, opened(issue)]))).toEqual(new Map(ids.map((id, i) => [id, openedAt(i)])));
    expect((whole.get('/patches?status=all') as Patch[]).length).toBe(10);
  });

  it('answer each page as cut from the whole listing, asked first and in order', async () => {
    const { server, evaluated } = await freshServer();
    try {
      const first = await answers(server, ['/issues?status=open&perPage=1']);
      expect(first.get('/issues?status=open&perPage=1')).toEqual(whole.get('/issues?status=open&perPage=1'));
      // One batch of the newest objects, not every issue.
      expect(issueEvaluations(evaluated)).toBeLessThanOrEqual(16);
      expect(await answers(server, PAGES)).toEqual(whole);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('answer the same when deep pages come first', async () => {
    const { server, evaluated } = await freshServer();
    try {
      const reversed = [...PAGES].reverse();
      expect(await answers(server, reversed)).toEqual(new Map(reversed.map((path) => [path, whole.get(path)])));
      expect(issueEvaluations(evaluated)).toBe(ISSUES + 3);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('see a new issue and a closed one at once, as the whole listing does', async () => {
    const { server } = await freshServer();
    try {
      await answers(server, ['/issues', '/issues?status=closed']);
      const newest = await createIssue(writer.as('bob', { time: T0 + 50_000 }), { title: 'Latest', description: 'Newest of all' });
      await setIssueState(writer.as('alice', { time: T0 + 50_001 }), { issue: ids[3] as Oid, state: { status: 'closed', reason: 'other' } });
      const after = ['/issues?perPage=3', '/issues?status=closed&perPage=5', '/issues?status=all&perPage=50'];
      const seen = await answers(server, after);
      expect((seen.get('/issues?perPage=3') as Issue[])[0]?.id).toBe(newest);
      expect(seen).toEqual(await wholeListingAnswers(after, ISSUES + 4 + PATCHES));
    } finally {
      await server.close();
    }
  }, 60_000);
});
