import type { Issue, RepoInfo } from '@forge-httpd/api-types';
import {
  assignIssue,
  commentIssue,
  type CobWriteContext,
  createIssue,
  editIssueComment,
  labelIssue,
  reactIssueComment,
  redactIssueComment,
  setIssueState,
} from '@forge-httpd/cob/write';
import { didFromNid } from '@forge-httpd/identity';
import type { Oid } from '@forge-httpd/storage';
import { type BuiltHome, type Peer, peerByAlias } from '@forge-httpd/builder';
import { buildCobHome, expectGolden, getJson, makeTempDir, removeTempDir, SettleClock, startTestServer, type TestServer } from './support/index.js';

let dir: string;
let built: BuiltHome;
let server: TestServer;
const ids: Record<string, Oid> = {};
const clock = new SettleClock();

/** A write context for a peer at the next tick of the home's clock. */
function as(peer: string, extra: Partial<CobWriteContext> = {}): CobWriteContext {
  const who: Peer = peerByAlias(built.context, peer);
  const repo = built.repos[0];
  if (repo === undefined) throw new Error('no repository');
  return { gitDir: repo.gitDir, keyPair: who.keyPair, alias: who.alias, time: built.context.clock.tick(), flavour: 'forge', ...extra };
}

function url(path: string): string {
  return `${server.baseUrl}/api/v1/repos/${built.repos[0]?.rid}${path}`;
}

async function issues(query = ''): Promise<Issue[]> {
  const response = await getJson(url(`/issues${query}`));
  expect(response.status).toBe(200);
  return response.body as Issue[];
}

// alice (local, the delegate), bob (known alias, forked) and eve (no alias) write issues.
async function writeIssues(): Promise<void> {
  const crash = (ids['crash'] = await createIssue(as('bob'), { title: 'Crash on start', description: 'It crashes on start.' }));
  ids['question'] = await commentIssue(as('alice'), { issue: crash, body: 'Which version?' });
  ids['answer'] = await commentIssue(as('bob'), { issue: crash, body: 'Version 1.2', replyTo: ids['question'] });
  await editIssueComment(as('bob'), { issue: crash, comment: crash, body: 'It crashes on start (1.2).' });
  await reactIssueComment(as('eve'), { issue: crash, comment: crash, reaction: '👍' });
  await reactIssueComment(as('alice'), { issue: crash, comment: crash, reaction: '👍' });
  await reactIssueComment(as('alice'), { issue: crash, comment: ids['answer'], reaction: '🎉' });
  await labelIssue(as('alice'), { issue: crash, labels: ['bug', 'crash'] });
  await assignIssue(as('alice'), { issue: crash, assignees: [didFromNid(peerByAlias(built.context, 'bob').keyPair.nid)] });
  // Two peers reply to the same state without seeing each other: concurrent changes.
  const seen = [await commentIssue(as('eve'), { issue: crash, body: 'Same here' })];
  ids['spam'] = await commentIssue(as('eve'), { issue: crash, body: 'Spam', tips: seen });
  ids['parallel'] = await commentIssue(as('bob'), {
    issue: crash,
    body: 'Logs attached',
    tips: seen,
    embeds: [{ name: 'log.txt', content: Buffer.from('panic\n') }],
  });
  await redactIssueComment(as('eve'), { issue: crash, comment: ids['spam'] });
  // Ignored like a node ignores them: eve may not label, and a forged change; both with a child.
  const denied = await labelIssue(as('eve', { force: true }), { issue: crash, labels: ['wontfix'] });
  await commentIssue(as('alice'), { issue: crash, body: 'after the denied label', tips: [denied] });
  const forged = await commentIssue(as('bob', { badSignature: true }), { issue: crash, body: 'forged' });
  await commentIssue(as('alice'), { issue: crash, body: 'after the forged comment', tips: [forged] });
  ids['docs'] = await createIssue(as('alice'), { title: 'Docs are outdated', description: 'The README lies.', labels: ['docs'] });
  await setIssueState(as('alice'), { issue: ids['docs'], state: { status: 'closed', reason: 'solved' } });
  ids['eve'] = await createIssue(as('eve'), { title: 'How do I build it?', description: 'Instructions please.' });
  ids['invalid'] = await createIssue(as('eve', { force: true }), { title: 'Spam', description: 'spam', labels: ['spam'] });
  ids['unsigned'] = await createIssue(as('bob', { badSignature: true }), { title: 'Forged', description: 'forged' });
}

beforeAll(async () => {
  dir = await makeTempDir();
  built = await buildCobHome(dir, { forks: ['bob'] });
  await writeIssues();
  server = await startTestServer({ home: built.home, now: clock.now });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await removeTempDir(dir);
});

describe('GET /repos/{rid}/issues', () => {
  it('lists open issues by default, newest first, leaving out invalid ones', async () => {
    expect((await issues()).map((issue) => issue.id)).toEqual([ids['eve'], ids['crash']]);
  });

  it.each([
    ['?status=closed', ['docs']],
    ['?status=all', ['eve', 'docs', 'crash']],
    ['?status=all&perPage=2', ['eve', 'docs']],
    ['?status=all&perPage=2&page=1', ['crash']],
    ['?status=all&perPage=0', []],
    ['?status=all&page=5', []],
  ])('filters and paginates %s', async (query, names) => {
    expect((await issues(query)).map((issue) => issue.id)).toEqual(names.map((name) => ids[name]));
  });

  it.each(['?status=draft', '?status=', '?perPage=x', '?page=1&page=2'])('answers 400 for %s', async (query) => {
    const response = await getJson(url(`/issues${query}`));
    expect(response.status).toBe(400);
  });
});

describe('GET /repos/{rid}/issues/{id}', () => {
  it('shows the discussion with edits, replies, reactions, embeds, labels and assignees', async () => {
    const response = await getJson(url(`/issues/${ids['crash']}`));
    expect(response.status).toBe(200);
    expectGolden('cob-issue-crash', response.body);
  });

  it('ignores unauthorised and forged changes together with the changes built on them', async () => {
    const issue = (await getJson(url(`/issues/${ids['crash']}`))).body as Issue;
    const bodies = issue.discussion.map((comment) => comment.body);
    expect(issue.labels).toEqual(['bug', 'crash']);
    for (const ignored of ['forged', 'after the forged comment', 'after the denied label', 'Spam']) expect(bodies).not.toContain(ignored);
    expect(bodies).toEqual(['It crashes on start (1.2).', 'Which version?', 'Version 1.2', 'Same here', 'Logs attached']);
  });

  it.each(['invalid', 'unsigned'])('answers 404 for the %s issue', async (name) => {
    const response = await getJson(url(`/issues/${ids[name]}`));
    expect(response.status).toBe(404);
    expect(response.text).toBe('{"error":"Not Found","code":404}');
  });

  it.each([
    ['f'.repeat(40), 404],
    ['xyz', 400],
    ['F'.repeat(40), 404],
  ])('answers %s with %s', async (id, status) => {
    expect((await getJson(url(`/issues/${id}`))).status).toBe(status);
  });

  it('orders concurrent comments made directly on the issue root by descending id, not by time', async () => {
    const root = await createIssue(as('alice'), { title: 'Race', description: 'Two replies at once.' });
    const first = await commentIssue(as('bob'), { issue: root, body: 'first in time', tips: [root] });
    const second = await commentIssue(as('eve'), { issue: root, body: 'second in time', tips: [root] });
    const issue = (await getJson(url(`/issues/${root}`))).body as Issue;
    expect(issue.discussion.map((comment) => comment.id)).toEqual([root, ...[first, second].sort().reverse()]);
  });

  it('shows a new issue in the list even after an unchanged listing was reused', async () => {
    const titles = async (): Promise<string[]> => ((await getJson(url('/issues?status=all&perPage=100'))).body as Issue[]).map((issue) => issue.title);
    clock.settle();
    const before = await titles();
    expect(await titles()).toEqual(before);
    await createIssue(as('bob'), { title: 'Written while the listing was cached', description: '' });
    clock.settle();
    expect(await titles()).toEqual(['Written while the listing was cached', ...before]);
  });

  it('shows a new change on the next request', async () => {
    await commentIssue(as('alice'), { issue: ids['eve'] as Oid, body: 'See CONTRIBUTING.md' });
    const issue = (await getJson(url(`/issues/${ids['eve']}`))).body as Issue;
    expect(issue.discussion.map((comment) => comment.body)).toEqual(['Instructions please.', 'See CONTRIBUTING.md']);
  });
});

describe('issue counts in repository info', () => {
  it('counts valid issues by state, including ones written after the server started', async () => {
    // Whatever other tests wrote: the counts must agree with the listing, and see a new issue.
    await createIssue(as('eve'), { title: 'Written while serving', description: '' });
    const counts = { open: 0, closed: 0 };
    for (const issue of (await getJson(url('/issues?status=all&perPage=1000'))).body as Issue[]) counts[issue.state.status] += 1;
    const info = (await getJson(url(''))).body as RepoInfo;
    const project = info.payloads['xyz.forge.project'] as { meta: { issues: unknown } };
    expect(project.meta.issues).toEqual(counts);
    expect(counts.open).toBeGreaterThanOrEqual(4);
  });
});
