import type { Issue, Job, Patch, RepoInfo } from '@forge-httpd/api-types';
import { type BuiltHome, buildDemoHome, repositoryByName } from '@forge-httpd/builder';
import { getJson, makeTempDir, removeTempDir, startTestServer, type TestServer } from './support/index.js';

let dir: string;
let built: BuiltHome;
let server: TestServer;

beforeAll(async () => {
  dir = await makeTempDir();
  built = await buildDemoHome(`${dir}/home`);
  server = await startTestServer({ home: built.home });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await removeTempDir(dir);
});

function url(repo: string, path: string): string {
  return `${server.baseUrl}/api/v1/repos/${repositoryByName(built, repo).rid}${path}`;
}

async function body<T>(repo: string, path: string): Promise<T> {
  const response = await getJson(url(repo, path));
  expect(response.status).toBe(200);
  return response.body as T;
}

describe('the demo home', () => {
  it('has open and closed issues from several people on acme-web', async () => {
    const issues = await body<Issue[]>('acme-web', '/issues?status=all');
    expect(issues.map((issue) => [issue.title, issue.state.status])).toEqual([
      ['Image gallery is slow', 'open'],
      ["Typo in footer: 'Copyrigth'", 'open'],
      ['Broken link on the about page', 'closed'],
      ['Add dark mode', 'open'],
      ['About page shows an old version', 'closed'],
    ]);
    const authors = new Set(issues.flatMap((issue) => issue.discussion.map((comment) => comment.author.id)));
    expect(authors.size).toBeGreaterThanOrEqual(5);
  });

  it('has a merged patch with two revisions and reviews, a draft, an archived and an open one', async () => {
    const patches = await body<Patch[]>('acme-web', '/patches?status=all');
    expect(patches.map((patch) => [patch.title, patch.state.status])).toEqual([
      ['Update dependencies', 'open'],
      ['Rewrite the site in a new framework', 'archived'],
      ['Add dark mode', 'draft'],
      ['Bump version to 0.2.0', 'merged'],
    ]);
    const merged = patches[3] as Patch;
    expect(merged.revisions).toHaveLength(2);
    expect(merged.merges).toHaveLength(2);
    expect(merged.revisions.map((revision) => revision.reviews.map((review) => review.verdict))).toEqual([['reject'], ['accept', 'accept']]);
    // Edited with review.edit.v2 and reacted to, as current Radicle writes them.
    const first = merged.revisions[0]?.reviews[0];
    expect(first?.summary).toBe('No release candidates, please: fixed in the next revision.');
    expect(first?.reactions.map((reaction) => [reaction.emoji, reaction.authors.map((author) => author.alias)])).toEqual([['👍', ['bob']]]);
  });

  it('counts them in the repository info; the merged revision is the canonical head', async () => {
    const info = await body<RepoInfo>('acme-web', '');
    const meta = (info.payloads['xyz.forge.project'] as { meta: { head: string; issues: unknown; patches: unknown } }).meta;
    expect(meta.issues).toEqual({ open: 3, closed: 2 });
    expect(meta.patches).toEqual({ open: 1, draft: 1, archived: 1, merged: 1 });
    const merged = (await body<Patch[]>('acme-web', '/patches?status=merged'))[0] as Patch;
    expect(meta.head).toBe(merged.revisions[1]?.oid);
  });

  it('has CI jobs with runs for the merged revision', async () => {
    const head = (await body<Patch[]>('acme-web', '/patches?status=merged'))[0]?.revisions[1]?.oid;
    const jobs = await body<Job[]>('acme-web', `/jobs/${head}`);
    expect(jobs.flatMap((job) => job.runs.map((run) => run.status))).toEqual(['succeeded', 'started']);
  });

  it('has a smaller history on tiny-lib', async () => {
    expect((await body<Issue[]>('tiny-lib', '/issues')).map((issue) => issue.title)).toEqual(['Document the public API']);
    expect((await body<Patch[]>('tiny-lib', '/patches')).map((patch) => patch.title)).toEqual(['Add API documentation']);
  });
});
