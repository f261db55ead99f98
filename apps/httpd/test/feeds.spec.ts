import { join } from 'node:path';
import type { Commit } from '@forge-httpd/api-types';
import { commentIssue, createIssue, createPatch, reviewPatch } from '@forge-httpd/cob/write';
import type { Oid } from '@forge-httpd/storage';
import { type BuiltHome, buildNodeHome, repositoryByName } from '@forge-httpd/builder';
import {
  ABSENT_RID,
  cobWriter,
  getBytes,
  getJson,
  makeTempDir,
  parseXml,
  rawRequest,
  removeTempDir,
  startTestServer,
  type TestServer,
  type XmlElement,
} from './support/index.js';

// The Atom feeds (RFC 4287) of a repository with more issues than a feed holds, hostile
// titles, a patch with a review, and a private repository beside it.
let dir: string;
let built: BuiltHome;
let server: TestServer;
const { repo, as, push } = cobWriter(() => built);
const issues: Oid[] = [];
let patch: Oid;

const HOSTILE = [
  ['a script', '<script>alert(1)</script>', '<script>alert(1)</script>'],
  ['a CDATA end and quotes', 'end ]]> & "quoted" \'single\'', 'end ]]> & "quoted" \'single\''],
  ['control characters', 'bell\u0007 nul\u0000 esc\u001b tab\tend\uffff', 'bell nul esc tab\tend'],
] as const;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

beforeAll(async () => {
  dir = await makeTempDir();
  built = await buildNodeHome({
    home: join(dir, 'home'),
    seed: 'f1'.repeat(32),
    alias: 'alice',
    peers: [{ alias: 'bob' }],
    repos: [
      { name: 'acme', forks: [{ peer: 'bob' }] },
      { name: 'secret', private: true },
    ],
  });
  // 51 issues, the three hostile titles last; then a comment makes the first one the latest.
  for (let index = 0; index < 48; index += 1) issues.push(await createIssue(as('bob'), { title: `Issue ${index}`, description: `Body ${index}` }));
  for (const [, title] of HOSTILE) issues.push(await createIssue(as('bob'), { title, description: `${title} in the body` }));
  await commentIssue(as('alice'), { issue: issues[0] as Oid, body: 'Still there?' });
  const base = repo().head;
  const tip = await push('bob', 'feature', 'feature.txt');
  patch = await createPatch(as('bob'), { title: 'Add <feature>', description: 'First version', base, oid: tip.oid });
  await reviewPatch(as('alice'), { patch, revision: patch, verdict: 'accept', summary: 'LGTM' });
  server = await startTestServer({ home: built.home });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await removeTempDir(dir);
});

const feedUrl = (kind: string, rid: string = repo().rid): string => `${server.baseUrl}/api/v1/repos/${rid}/feeds/${kind}.atom`;

function child(element: XmlElement, name: string): XmlElement {
  const found = element.children.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`<${element.name}> has no <${name}>`);
  return found;
}

/** Fetches and parses a feed, checking what RFC 4287 requires of it and of every entry. */
async function readFeed(kind: string): Promise<{ feed: XmlElement; entries: XmlElement[]; text: string; etag: string | null }> {
  const response = await getBytes(feedUrl(kind));
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
  expect(response.headers.get('cache-control')).toBeNull();
  const text = response.bytes.toString('utf8');
  const feed = parseXml(text);
  expect([feed.name, feed.attributes.xmlns]).toEqual(['feed', 'http://www.w3.org/2005/Atom']);
  expect(child(feed, 'id').text).toBe(`${repo().rid}/feeds/${kind}`);
  expect(child(feed, 'title').text).toBe(`acme: ${kind}`);
  expect(child(feed, 'updated').text).toMatch(RFC3339);
  const self = feed.children.find((element) => element.name === 'link' && element.attributes.rel === 'self');
  expect(self?.attributes.href).toBe(feedUrl(kind));
  const entries = feed.children.filter((element) => element.name === 'entry');
  for (const entry of entries) {
    for (const name of ['id', 'title', 'updated', 'author']) expect(entry.children.filter((element) => element.name === name)).toHaveLength(1);
    expect(child(entry, 'updated').text).toMatch(RFC3339);
    expect(child(child(entry, 'author'), 'name').text).not.toBe('');
    expect(child(entry, 'link').attributes).toEqual({
      rel: 'alternate',
      type: 'application/json',
      href: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\//),
    });
  }
  return { feed, entries, text, etag: response.headers.get('etag') };
}

describe('GET /repos/{rid}/feeds/commits.atom', () => {
  it('lists the default branch newest first, as the commit list does, each entry linking to its commit', async () => {
    const { entries } = await readFeed('commits');
    const commits = (await getJson(`${server.baseUrl}/api/v1/repos/${repo().rid}/commits?perPage=50`)).body as Commit[];
    expect(commits.length).toBeGreaterThan(1);
    expect(entries.map((entry) => child(entry, 'id').text)).toEqual(commits.map((commit) => `${repo().rid}/commits/${commit.id}`));
    expect(entries.map((entry) => child(entry, 'title').text)).toEqual(commits.map((commit) => commit.summary));
    expect(entries.map((entry) => child(entry, 'link').attributes.href)).toEqual(
      commits.map((commit) => `${server.baseUrl}/api/v1/repos/${repo().rid}/commits/${commit.id}`),
    );
  });

  it('answers 304 to its ETag', async () => {
    const { etag } = await readFeed('commits');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const again = await getBytes(feedUrl('commits'), { headers: { 'if-none-match': etag as string } });
    expect([again.status, again.bytes.length]).toEqual([304, 0]);
  });
});

describe('GET /repos/{rid}/feeds/issues.atom', () => {
  it('lists the 50 issues with the latest activity, a comment counting as activity', async () => {
    const { entries } = await readFeed('issues');
    const ids = entries.map((entry) => child(entry, 'id').text);
    // Issue 0 was commented last; issue 1, the oldest otherwise, is left out.
    const expected = [issues[0], ...issues.slice(2).reverse()].map((id) => `${repo().rid}/issues/${id}`);
    expect(ids).toEqual(expected);
    expect(child(entries[0] as XmlElement, 'link').attributes.href).toBe(`${server.baseUrl}/api/v1/repos/${repo().rid}/issues/${issues[0]}`);
  });

  it.each(HOSTILE)('escapes a title with %s, leaving out what XML cannot hold', async (_, title, shown) => {
    const { entries, text } = await readFeed('issues');
    const entry = entries.find((candidate) =>
      child(candidate, 'id').text.endsWith(issues[48 + HOSTILE.findIndex(([, hostile]) => hostile === title)] as string),
    );
    expect(child(entry as XmlElement, 'title').text).toBe(shown);
    expect(child(entry as XmlElement, 'summary').text).toBe(`${shown} in the body`);
    expect(text).not.toContain('<script>');
  });
});

describe('GET /repos/{rid}/feeds/patches.atom', () => {
  it('lists the patch, updated by its review', async () => {
    const { entries } = await readFeed('patches');
    expect(entries.map((entry) => [child(entry, 'id').text, child(entry, 'title').text])).toEqual([[`${repo().rid}/patches/${patch}`, 'Add <feature>']]);
    const view = (await getJson(`${server.baseUrl}/api/v1/repos/${repo().rid}/patches/${patch}`)).body as {
      revisions: Array<{ reviews: Array<{ timestamp: number }> }>;
    };
    const reviewed = view.revisions[0]?.reviews[0]?.timestamp as number;
    expect(child(entries[0] as XmlElement, 'updated').text).toBe(new Date(reviewed * 1000).toISOString().replace('.000Z', 'Z'));
  });
});

describe('links and privacy', () => {
  it('builds links on the Host the client used, https behind a proxy that says so', async () => {
    const response = await rawRequest(server.baseUrl, {
      path: `/api/v1/repos/${repo().rid}/feeds/issues.atom`,
      headers: { host: 'Forge.Example:8443', 'x-forwarded-proto': 'https' },
    });
    const self = parseXml(response.text).children.find((element) => element.name === 'link');
    expect(self?.attributes.href).toBe(`https://forge.example:8443/api/v1/repos/${repo().rid}/feeds/issues.atom`);
  });

  it('links relative to the server when the Host is malformed', async () => {
    const response = await rawRequest(server.baseUrl, { path: `/api/v1/repos/${repo().rid}/feeds/issues.atom`, headers: { host: 'a b<c>' } });
    const self = parseXml(response.text).children.find((element) => element.name === 'link');
    expect(self?.attributes.href).toBe(`/api/v1/repos/${repo().rid}/feeds/issues.atom`);
  });

  it.each(['commits', 'issues', 'patches'])('answers the %s feed of a private repository exactly like an absent one', async (kind) => {
    const hidden = await getJson(feedUrl(kind, repositoryByName(built, 'secret').rid));
    const absent = await getJson(feedUrl(kind, ABSENT_RID));
    const answer = (response: typeof hidden): unknown[] => [response.status, response.text, response.headers.get('content-type'), response.headers.get('etag')];
    expect(answer(hidden)).toEqual([404, '{"error":"Not Found","code":404}', 'application/json; charset=utf-8', null]);
    expect(answer(absent)).toEqual(answer(hidden));
    expect((await getJson(feedUrl(kind, 'rad:nope'))).status).toBe(400);
  });
});
