import { spawnSync } from 'node:child_process';
import type { Commit, CommitDetail, CompareResponse, GrepResponse } from '@forge-httpd/api-types';
import { type BuiltHome, repositoryByName } from '@forge-httpd/builder';
import type { ScratchCommit } from '@forge-httpd/builder/scratch';
import type { Oid } from '@forge-httpd/storage';
import { ABSENT_RID, getJson, rawRequest, type ScratchServer, startScratchServer, type TestServer } from './support/index.js';

const T = 1_700_000_000;
const NOT_FOUND = '{"error":"Not Found","code":404}';
const ADA = { name: 'Ada Scratch', email: 'ada@example.com' };
const EMILE = { name: 'Émile Ünicode', email: 'emile@example.org' };
const BOB = { name: 'Bob Builder', email: 'Bob@Example.COM' };
const KELVIN = { name: 'Temperature \u212A', email: 'kelvin@example.net' };
const LONG_LINE = `${'é'.repeat(1500)} needle ${'x'.repeat(2000)}\n`;

/**
 * Edge cases for git grep, rev-list and compare: renames and copies, binary, huge and empty
 * files, non-UTF-8 paths and lines, a submodule and a symlink, merges (a criss-cross with two
 * merge bases) and a second, unrelated root merged in at the end.
 */
const COMMITS: ScratchCommit[] = [
  {
    message: 'Initial import\n',
    time: T,
    author: ADA,
    changes: [
      { path: 'a.txt', content: 'one needle\ntwo\nthree Needle\n' },
      { path: 'dir/b.txt', content: 'needle in dir\n' },
      { path: 'dir-x.txt', content: 'needle beside dir\n' },
      { path: 'binary.bin', content: Buffer.from('needle\0needle\n') },
      { path: 'empty.txt', content: '' },
    ],
  },
  {
    message: 'Odd files\n\nWith a BUG fix in the body.\n',
    time: T + 100,
    author: EMILE,
    changes: [
      { path: Buffer.from('caf\xe9-needle.txt', 'latin1'), content: Buffer.from('caf\xe9 needle\n', 'latin1') },
      { path: 'long.txt', content: LONG_LINE },
      { path: 'many.txt', content: Array.from({ length: 1500 }, (_, i) => `many ${i}\n`).join('') },
      { path: ':(glob)*.txt', content: 'a needle with magic\n' },
      { path: '-dash.txt', content: '-e needle\n' },
      { path: 'sub', submodule: 'ab'.repeat(20) },
      { path: 'link', link: 'needle-target' },
    ],
  },
  {
    message: 'Rename a, copy b\n',
    time: T + 200,
    author: BOB,
    changes: [
      { path: 'a.txt', delete: true },
      { path: 'renamed.txt', content: 'one needle\ntwo\nthree Needle\n' },
      { path: 'dir/copy.txt', content: 'needle in dir\n' },
    ],
  },
  { message: 'Side: touch dir\n', time: T + 300, author: KELVIN, parents: [2], changes: [{ path: 'dir/b.txt', content: 'needle in dir, side\n' }] },
  { message: 'Main: Ärger with the build\n', time: T + 400, author: ADA, parents: [2], changes: [{ path: 'dir-x.txt', content: 'needle beside dir, main\n' }] },
  { message: "Merge 'side' into main\n", time: T + 500, author: BOB, parents: [4, 3], changes: [{ path: 'dir/b.txt', content: 'needle in dir, side\n' }] },
  {
    message: "Merge 'main' into side\n",
    time: T + 600,
    author: EMILE,
    parents: [3, 4],
    changes: [{ path: 'dir-x.txt', content: 'needle beside dir, main\n' }],
  },
  { message: 'Unrelated root\n', time: T + 700, author: BOB, parents: [], changes: [{ path: 'other.txt', content: 'another needle\n' }] },
  { message: 'Unrelated, second\n', time: T + 800, author: BOB, changes: [{ path: 'other.txt', content: 'another needle, twice needle\n' }] },
  { message: 'Join everything\n', time: T + 900, author: ADA, parents: [5, 6, 8], changes: [{ path: 'other.txt', content: 'another needle, twice needle\n' }] },
];

let scratch: ScratchServer;
let built: BuiltHome;
let server: TestServer;
let ids: Oid[];

beforeAll(async () => {
  scratch = await startScratchServer({ name: 'search', seed: '5e'.repeat(32), time: T, commits: COMMITS });
  ({ built, server, ids } = scratch);
}, 60_000);
afterAll(() => scratch?.close());

const repo = (name = 'search'): string => `${server.baseUrl}/api/v1/repos/${repositoryByName(built, name).rid}`;
const gitDir = (): string => repositoryByName(built, 'search').gitDir;

/** The git CLI on the served repository: stdout, and the exit status. */
function git(args: readonly string[]): { stdout: Buffer; status: number | null } {
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', LC_ALL: 'C' };
  const result = spawnSync('git', [`--git-dir=${gitDir()}`, '-c', 'core.quotePath=false', ...args], { env, maxBuffer: 64 * 1024 * 1024 });
  return { stdout: result.stdout, status: result.status };
}

const lines = (output: Buffer): string[] =>
  output
    .toString('latin1')
    .split('\n')
    .filter((line) => line !== '');

/** What `git grep -F -n -I --no-color [-i] -e q sha -- :(literal)path` prints, as matches (`-z` to split it). */
function oracleGrep(sha: Oid, q: string, options: { path?: string; ignoreCase?: boolean } = {}): GrepResponse['matches'] {
  const pathspec = options.path === undefined ? [] : [`:(literal)${options.path}`];
  const { stdout, status } = git([
    'grep',
    '-F',
    '-n',
    '-I',
    '--no-color',
    '-z',
    ...(options.ignoreCase === true ? ['-i'] : []),
    '-e',
    q,
    sha,
    '--',
    ...pathspec,
  ]);
  expect([0, 1]).toContain(status);
  const records: GrepResponse['matches'] = [];
  let start = 0;
  while (start < stdout.length) {
    const end = stdout.indexOf(0x0a, start);
    const record = stdout.subarray(start, end);
    const first = record.indexOf(0);
    const second = record.indexOf(0, first + 1);
    const text = Array.from(record.subarray(second + 1).toString('utf8'))
      .slice(0, 1000)
      .join('');
    records.push({ path: record.subarray(41, first).toString('utf8'), line: Number(record.subarray(first + 1, second).toString()), text });
    start = end + 1;
  }
  return records;
}

async function grep(sha: Oid, query: string): Promise<{ status: number; body: GrepResponse; text: string; headers: Headers }> {
  const response = await getJson(`${repo()}/grep/${sha}?${query}`);
  return { status: response.status, body: response.body as GrepResponse, text: response.text, headers: response.headers };
}

describe('GET /repos/{rid}/grep/{sha}', () => {
  it.each<[string, { path?: string; ignoreCase?: boolean }]>([
    ['needle', {}],
    ['NEEDLE', { ignoreCase: true }],
    ['needle', { path: 'dir' }],
    ['needle', { path: 'dir/b.txt' }],
    ['needle', { path: ':(glob)*.txt' }],
    ['-e', {}],
    ['caf\u00e9', {}],
    ['no such text anywhere', {}],
    ['needle', { path: 'sub' }],
  ])('lists what git grep prints for %j %j', async (q, options) => {
    for (const sha of [ids[1], ids[6], ids[9]] as Oid[]) {
      const params = new URLSearchParams({
        q,
        ...(options.path === undefined ? {} : { path: options.path }),
        ...(options.ignoreCase === true ? { ignoreCase: 'true' } : {}),
      });
      const { status, body } = await grep(sha, params.toString());
      expect(status).toBe(200);
      expect(body).toEqual({ matches: oracleGrep(sha, q, options), truncated: false });
    }
  });

  it('orders by path bytes, skips binary files, shows non-UTF-8 bytes as U+FFFD and cuts long lines', async () => {
    const { body } = await grep(ids[1] as Oid, 'q=needle');
    const paths = body.matches.map((match) => match.path);
    expect(paths).toEqual([...paths].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
    expect(paths).not.toContain('binary.bin');
    expect(body.matches).toContainEqual({ path: 'caf\ufffd-needle.txt', line: 1, text: 'caf\ufffd needle' });
    const long = body.matches.find((match) => match.path === 'long.txt');
    expect(Array.from(long?.text ?? '')).toHaveLength(1000);
  });

  it('keeps the first 1,000 matches and says the rest were cut', async () => {
    const { body } = await grep(ids[1] as Oid, 'q=many');
    expect(body.truncated).toBe(true);
    expect(body.matches).toEqual(oracleGrep(ids[1] as Oid, 'many').slice(0, 1000));
  });

  it('is immutable, with an ETag that answers 304', async () => {
    const first = await grep(ids[1] as Oid, 'q=needle');
    expect(first.headers.get('cache-control')).toBe('public, max-age=604800, immutable');
    const etag = first.headers.get('etag') ?? '';
    const again = await fetch(`${repo()}/grep/${ids[1]}?q=needle`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });

  it.each([
    ['no q', '', 400],
    ['an empty q', 'q=', 400],
    ['a q of 257 characters', `q=${'é'.repeat(257)}`, 400],
    ['a q of 256 characters', `q=${'é'.repeat(256)}`, 200],
    ['a repeated q', 'q=a&q=b', 400],
    ['a NUL in q', 'q=a%00b', 400],
    ['an absent path', 'q=needle&path=nope', 404],
    ['a path climbing out', 'q=needle&path=..', 404],
    ['a path with glob magic that names nothing', 'q=needle&path=:(glob)dir', 404],
    ['a bad ignoreCase', 'q=needle&ignoreCase=yes', 400],
    ['a huge path', `q=needle&path=${'a'.repeat(5000)}`, 400],
  ])('answers %s (case %#)', async (_, query, status) => {
    const response = await getJson(`${repo()}/grep/${ids[1]}?${query}`);
    expect(response.status).toBe(status);
    if (status === 404) expect(response.text).toBe(NOT_FOUND);
    if (status === 400) expect((response.body as { error: string }).error).toMatch(/^Invalid (q|path|ignoreCase)/);
  });

  it('answers 404 for an absent commit and 400 for a malformed one', async () => {
    expect((await getJson(`${repo()}/grep/${'0'.repeat(40)}?q=needle`)).text).toBe(NOT_FOUND);
    expect((await getJson(`${repo()}/grep/abc?q=needle`)).status).toBe(400);
  });
});

/** The commit ids the API lists for a query (every page at once). */
async function listed(query: string): Promise<string[]> {
  const response = await getJson(`${repo()}/commits?perPage=1000&${query}`);
  expect(response.status).toBe(200);
  return (response.body as Commit[]).map((commit) => commit.id);
}

describe('GET /repos/{rid}/commits with path, author and q', () => {
  it.each(['dir', 'dir/b.txt', 'a.txt', 'renamed.txt', 'dir-x.txt', 'other.txt', 'sub', 'nope', ':(glob)*.txt', '-dash.txt'])(
    'lists what git rev-list names for path %j',
    async (path) => {
      const expected = lines(git(['--literal-pathspecs', 'rev-list', ids[9] as string, '--', path]).stdout);
      expect(await listed(`path=${encodeURIComponent(path)}`)).toEqual(expected);
    },
  );

  it.each(['ada', 'EXAMPLE.com', 'bob builder', 'scratch'])('lists what git rev-list -i -F --author names for %j', async (author) => {
    const expected = lines(git(['rev-list', '-i', '-F', `--author=${author}`, ids[9] as string]).stdout);
    expect(expected.length).toBeGreaterThan(0);
    expect(await listed(`author=${encodeURIComponent(author)}`)).toEqual(expected);
  });

  it.each(['merge', 'bug fix', 'UNRELATED'])('lists what git rev-list -i -F --grep names for %j', async (q) => {
    const expected = lines(git(['rev-list', '-i', '-F', `--grep=${q}`, ids[9] as string]).stdout);
    expect(expected.length).toBeGreaterThan(0);
    expect(await listed(`q=${encodeURIComponent(q)}`)).toEqual(expected);
  });

  it('folds non-ASCII case, and never folds a Kelvin sign onto k', async () => {
    const order = lines(git(['rev-list', ids[9] as string]).stdout);
    const by = (test: (commit: ScratchCommit) => boolean): string[] => order.filter((id) => COMMITS.some((commit, index) => ids[index] === id && test(commit)));
    expect(await listed('author=%C3%A9MILE')).toEqual(by((commit) => commit.author === EMILE));
    expect(await listed('q=%C3%A4rger')).toEqual(by((commit) => commit.message.includes('Ärger')));
    expect(await listed('author=temperature%20k')).toEqual([]);
    // The name or the email, never both: git's `Name <email>` match would take these.
    expect(git(['rev-list', '-i', '-F', '--author=scratch <ada', ids[9] as string]).stdout.length).toBeGreaterThan(0);
    expect(await listed('author=scratch%20%3Cada')).toEqual([]);
    expect(await listed('author=scratch%20')).toEqual([]);
    expect(await listed('author=temperature%20%E2%84%AA')).toEqual(by((commit) => commit.author === KELVIN));
  });

  it('combines the filters with each other, with parent and since/until, and pages like the plain list', async () => {
    const byPath = lines(git(['--literal-pathspecs', 'rev-list', '--timestamp', ids[9] as string, '--', 'dir']).stdout);
    const byAuthor = new Set(lines(git(['rev-list', '-i', '-F', '--author=bob', ids[9] as string]).stdout));
    const expected = byPath
      .map((line) => line.split(' '))
      .filter(([time, id]) => Number(time) >= T + 200 && Number(time) < T + 600 && byAuthor.has(id as string))
      .map(([, id]) => id);
    expect(expected.length).toBeGreaterThan(0);
    expect(await listed(`path=dir&author=bob&since=${T + 200}&until=${T + 600}`)).toEqual(expected);
    const fromParent = lines(git(['--literal-pathspecs', 'rev-list', ids[6] as string, '--', 'dir-x.txt']).stdout);
    expect(await listed(`parent=${ids[6]}&path=dir-x.txt`)).toEqual(fromParent);
    const all = await listed('path=dir');
    const page = await getJson(`${repo()}/commits?path=dir&page=1&perPage=2`);
    expect((page.body as Commit[]).map((commit) => commit.id)).toEqual(all.slice(2, 4));
    const plain = ((await getJson(`${repo()}/commits?perPage=1000`)).body as Commit[]).filter((commit) => all.includes(commit.id));
    expect((await getJson(`${repo()}/commits?perPage=1000&path=dir`)).body).toEqual(plain);
  });

  it.each([
    ['an empty path', 'path=', 400],
    ['a path of 257 characters', `path=${'a'.repeat(257)}`, 400],
    ['a path climbing out', 'path=..', 400],
    ['an author starting with a dash', 'author=--all', 200],
    ['a q that looks like an option', 'q=--output=/tmp/x', 200],
    ['a repeated author', 'author=a&author=b', 400],
  ])('answers %s (case %#)', async (_, query, status) => {
    const response = await getJson(`${repo()}/commits?${query}`);
    expect(response.status).toBe(status);
    if (status === 200) expect(response.body).toEqual([]);
  });
});

async function compare(range: string): Promise<{ status: number; body: CompareResponse; headers: Headers; text: string }> {
  const response = await getJson(`${repo()}/compare/${range}`);
  return { status: response.status, body: response.body as CompareResponse, headers: response.headers, text: response.text };
}

/** What the git CLI says of `base...head`: counts, merge base, the ahead commits. */
function oracleCompare(base: string, head: string): Pick<CompareResponse, 'ahead' | 'behind' | 'mergeBase'> & { commits: string[] } {
  const [behind, ahead] = git(['rev-list', '--left-right', '--count', `${base}...${head}`])
    .stdout.toString()
    .trim()
    .split(/\s+/)
    .map(Number);
  const mergeBase = git(['merge-base', base, head]);
  return {
    ahead: ahead as number,
    behind: behind as number,
    mergeBase: mergeBase.status === 0 ? mergeBase.stdout.toString().trim() : null,
    commits: lines(git(['rev-list', head, `^${base}`]).stdout),
  };
}

describe('GET /repos/{rid}/compare/{base}...{head}', () => {
  it.each([
    ['a fork point', 2, 5],
    ['the other way', 5, 2],
    ['side by side', 3, 4],
    ['criss-cross merges (two merge bases)', 5, 6],
    ['unrelated histories', 4, 8],
    ['the same commit', 5, 5],
    ['a root against the tip', 0, 9],
  ])('answers what git says for %s', async (_, from, to) => {
    const [base, head] = [ids[from] as Oid, ids[to] as Oid];
    const { status, body } = await compare(`${base}...${head}`);
    expect(status).toBe(200);
    const { commits, ...counts } = oracleCompare(base, head);
    expect({ base: body.base, head: body.head, mergeBase: body.mergeBase, ahead: body.ahead, behind: body.behind }).toEqual({ base, head, ...counts });
    expect(body.commits.map((commit) => commit.id)).toEqual(commits);
    expect(body.truncated).toBe(false);
    // The diff is from the merge base (from base when unrelated), counted as git diff --numstat -M -C counts.
    const numstat = lines(git(['diff', '--numstat', '-M', '-C', body.mergeBase ?? base, head]).stdout).map((line) => line.split('\t'));
    expect(body.diff.stats).toEqual({
      filesChanged: numstat.length,
      insertions: numstat.reduce((sum, [added]) => sum + Number(added === '-' ? 0 : added), 0),
      deletions: numstat.reduce((sum, [, deleted]) => sum + Number(deleted === '-' ? 0 : deleted), 0),
    });
  });

  it('shows the diff and files of the commit page when head is a child of base', async () => {
    const { body } = await compare(`${ids[1]}...${ids[2]}`);
    const page = (await getJson(`${repo()}/commits/${ids[2]}`)).body as CommitDetail;
    expect({ diff: body.diff, files: body.files }).toEqual({ diff: page.diff, files: page.files });
  });

  it('takes canonical branch names, revalidated, with the ETag of the same answer by ids', async () => {
    const byName = await compare(`${ids[0]}...main`);
    expect(byName.status).toBe(200);
    expect(byName.body.head).toBe(ids[9]);
    expect(byName.headers.get('cache-control')).toBeNull();
    const byIds = await compare(`${ids[0]}...${ids[9]}`);
    expect(byIds.headers.get('cache-control')).toBe('public, max-age=604800, immutable');
    expect(byName.headers.get('etag')).toBe(byIds.headers.get('etag'));
    expect(byName.text).toBe(byIds.text);
  });

  it.each([
    ['an unknown name', () => 'nope...main', 404],
    ['a name outside the canonical refs', () => `${ids[0]}...refs%2Fheads%2Fmain`, 404],
    ['an absent commit', () => `${'0'.repeat(40)}...main`, 404],
    ['no separator', () => `${ids[0]}..master`, 400],
    ['an empty side', () => `...main`, 400],
  ])('answers %s (case %#)', async (_, range, status) => {
    const response = await compare(range());
    expect(response.status).toBe(status);
    if (status === 404) expect(response.text).toBe(NOT_FOUND);
  });
});

describe('privacy', () => {
  it.each([
    () => `/grep/${ids[1]}?q=needle`,
    () => `/commits?path=dir`,
    () => `/commits?author=ada&q=merge`,
    () => `/compare/${ids[2]}...${ids[5]}`,
    () => `/compare/${ids[2]}...main`,
  ])('a private repository answers %# exactly like an absent one', async (path) => {
    const hidden = await rawRequest(server.baseUrl, { path: `/api/v1/repos/${repositoryByName(built, 'hidden').rid}${path()}` });
    const absent = await rawRequest(server.baseUrl, { path: `/api/v1/repos/${ABSENT_RID}${path()}` });
    const headers = (response: typeof hidden): Array<[string, string]> => [...response.headers.entries()].filter(([name]) => name !== 'date');
    expect([hidden.status, hidden.text, headers(hidden)]).toEqual([absent.status, absent.text, headers(absent)]);
    expect([hidden.status, hidden.text]).toEqual([404, NOT_FOUND]);
  });
});
