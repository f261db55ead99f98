import { join } from 'node:path';
import type { Activity, Commit } from '@forge-httpd/api-types';
import type { Rid } from '@forge-httpd/identity';
import { type BuiltHome, buildNodeHome, repositoryByName } from '@forge-httpd/builder';
import { execGit, type ScratchCommit, writeScratchHistory } from '@forge-httpd/builder/scratch';
import { ABSENT_RID, expectGolden, getJson, makeTempDir, removeTempDir, startTestServer, type TestServer } from './support/index.js';

const T = 1_700_000_000;
const NOW = Math.floor(Date.now() / 1000);
const DAY = 86_400;
const NOT_FOUND = '{"error":"Not Found","code":404}';

/** 45 commits: a message-rules commit, a merge, a clock-skewed commit, then a run of counters. */
function historyCommits(): ScratchCommit[] {
  const commits: ScratchCommit[] = [
    { message: 'Initial import\n', time: T, changes: [{ path: 'README.md', content: '# History\n' }] },
    { message: 'Side work\n', time: T + 200, changes: [{ path: 'side.txt', content: 'side\n' }] },
    { message: 'Main work\n', time: T + 100, parents: [0], changes: [{ path: 'main.txt', content: 'main\n' }] },
    { message: "Merge branch 'side'\n", time: T + 300, parents: [2, 1], changes: [{ path: 'side.txt', content: 'side\n' }] },
    {
      message: '\n\nLeading newlines skipped,\nthe first paragraph   joined\n\n  Body kept,\n\n  trimmed.  \n\n',
      time: T + 400,
      changes: [{ path: 'README.md', content: '# History\n\nMore.\n' }],
    },
    { message: 'Clock skew: older than its parent\n', time: T - 5_000, changes: [{ path: 'skew.txt', content: 'skew\n' }] },
  ];
  for (let index = 0; index < 39; index++) {
    commits.push({ message: `Counter ${index}\n`, time: T + 1_000 + index * 100, changes: [{ path: 'counter.txt', content: `${index}\n` }] });
  }
  return commits;
}

/** Activity: times around the 52-week window, one far in the past, one not monotonic. */
const RECENT_TIMES = [NOW - 400 * DAY, NOW - 365 * DAY, NOW - 363 * DAY, NOW - 10 * DAY, NOW - 20 * DAY, NOW - DAY];

let dir: string;
let built: BuiltHome;
let server: TestServer;
let history: string[];

beforeAll(async () => {
  dir = await makeTempDir();
  history = await writeScratchHistory(join(dir, 'history.git'), historyCommits());
  const recent = RECENT_TIMES.map((time, index) => ({ message: `Recent ${index}\n`, time, changes: [{ path: 'r', content: `${index}\n` }] }));
  await writeScratchHistory(join(dir, 'recent.git'), recent);
  const source = (name: string) => ({ kind: 'import' as const, from: join(dir, `${name}.git`), sourceRef: 'refs/heads/master' });
  built = await buildNodeHome({
    home: join(dir, 'home'),
    seed: 'c0'.repeat(32),
    alias: 'seed',
    time: T,
    repos: [
      { name: 'history', history: source('history') },
      { name: 'recent', history: source('recent') },
      { name: 'hidden', private: true, history: source('history') },
    ],
  });
  server = await startTestServer({ home: built.home });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await removeTempDir(dir);
});

const rid = (name: string): Rid => repositoryByName(built, name).rid;
const url = (path: string) => `${server.baseUrl}/api/v1/repos/${rid('history')}${path}`;
const ids = async (path: string): Promise<string[]> => {
  const response = await getJson(url(path));
  expect(response.status).toBe(200);
  return (response.body as Commit[]).map((commit) => commit.id);
};

/** git's own walk of the storage repository: `[oid, committer time]`, newest first. */
async function gitWalk(from: string): Promise<[string, number][]> {
  const out = await execGit({ gitDir: repositoryByName(built, 'history').gitDir, args: ['rev-list', '--timestamp', from] });
  return out
    .toString()
    .trim()
    .split('\n')
    .map((line) => {
      const [time = '', oid = ''] = line.split(' ');
      return [oid, Number(time)];
    });
}

describe('GET /repos/{rid}/commits', () => {
  it('lists the 30 newest commits from the head in git order, without Cache-Control', async () => {
    const response = await getJson(url('/commits'));
    expect(response.headers.get('cache-control')).toBeNull();
    const walk = await gitWalk(history.at(-1) ?? '');
    expect((response.body as Commit[]).map((commit) => commit.id)).toEqual(walk.slice(0, 30).map(([oid]) => oid));
  });

  it.each([
    ['?perPage=5', 0, 5],
    ['?page=2&perPage=7', 14, 21],
    ['?page=1', 30, 60],
    ['?page=9&perPage=10', 90, 100],
    ['?perPage=0', 0, 0],
    ['?page=9007199254740991&perPage=9007199254740991', 0, 0],
  ])('paginates %s', async (query, start, end) => {
    const walk = await gitWalk(history.at(-1) ?? '');
    expect(await ids(`/commits${query}`)).toEqual(walk.slice(start, end).map(([oid]) => oid));
  });

  it.each([
    ['since', (time: number, bound: number) => time >= bound],
    ['until', (time: number, bound: number) => time < bound],
  ])('filters on committer time with %s and no limit when perPage is absent', async (key, keep) => {
    const walk = await gitWalk(history.at(-1) ?? '');
    for (const bound of [T - 5_000, T + 300, T + 1_000, T + 1_001]) {
      const expected = walk.filter(([, time]) => keep(time, bound)).map(([oid]) => oid);
      expect(await ids(`/commits?${key}=${bound}`)).toEqual(expected);
    }
  });

  it('combines since and until, paginates them with perPage, and gives [] past page 0 without perPage', async () => {
    const walk = await gitWalk(history.at(-1) ?? '');
    const inRange = walk.filter(([, time]) => time >= T && time < T + 2_000).map(([oid]) => oid);
    expect(await ids(`/commits?since=${T}&until=${T + 2_000}`)).toEqual(inRange);
    expect(await ids(`/commits?since=${T}&until=${T + 2_000}&perPage=3&page=1`)).toEqual(inRange.slice(3, 6));
    expect(await ids(`/commits?since=${T}&page=1`)).toEqual([]);
    expect(await ids(`/commits?since=-9223372036854775808&until=9223372036854775807`)).toHaveLength(45);
  });

  it('walks from parent, includes merges, and marks the answer immutable', async () => {
    const response = await getJson(url(`/commits?parent=${history[4]}&perPage=3`));
    expect(response.headers.get('cache-control')).toBe('public, max-age=604800, immutable');
    expectGolden('browse-commits-parent', response.body);
    expect(await ids(`/commits?parent=${history[3]?.toUpperCase()}`)).toEqual([3, 1, 2, 0].map((index) => history[index]));
  });

  it.each([
    [404, 'an unknown parent', `parent=${'1'.repeat(40)}`, NOT_FOUND],
    [404, 'a parent that is a blob, not a commit', 'parent=ABLOB', NOT_FOUND],
    [400, 'a short parent', 'parent=abc123', '{"error":"Invalid parent: expected 40 hexadecimal characters","code":400}'],
    [400, 'a repeated parent', `parent=${'1'.repeat(40)}&parent=${'1'.repeat(40)}`, '{"error":"Invalid parent: given more than once","code":400}'],
    [400, 'a non-numeric since', 'since=yesterday', '{"error":"Invalid since: expected an integer","code":400}'],
    [400, 'a negative perPage', 'perPage=-1', '{"error":"Invalid perPage: expected a non-negative integer","code":400}'],
    [400, 'an empty page', 'page=', '{"error":"Invalid page: expected a non-negative integer","code":400}'],
  ])('answers %i for %s', async (status, _, query, body) => {
    const blob = (await execGit({ gitDir: repositoryByName(built, 'history').gitDir, args: ['rev-parse', `${history[0]}:README.md`] })).toString().trim();
    const response = await getJson(url(`/commits?${query.replace('ABLOB', blob)}`));
    expect([response.status, response.text, response.headers.get('cache-control')]).toEqual([status, body, null]);
  });

  it('maps summary and description as libgit2 does', async () => {
    const response = await getJson(url(`/commits?parent=${history[4]}&perPage=1`));
    const [commit] = response.body as Commit[];
    expect(commit?.summary).toBe('Leading newlines skipped, the first paragraph   joined');
    expect(commit?.description).toBe('Leading newlines skipped,\nthe first paragraph   joined\n\n  Body kept,\n\n  trimmed.');
  });
});

describe('repository gate of the commit routes', () => {
  it.each(['/commits', '/activity', `/commits/${'1'.repeat(40)}`])('answers %s of a private repository exactly like an absent one', async (path) => {
    const hidden = await getJson(`${server.baseUrl}/api/v1/repos/${rid('hidden')}${path}`);
    const absent = await getJson(`${server.baseUrl}/api/v1/repos/${ABSENT_RID}${path}`);
    expect([hidden.status, hidden.text]).toEqual([404, NOT_FOUND]);
    expect([absent.status, absent.text]).toEqual([404, NOT_FOUND]);
  });

  it('rejects a malformed rid with 400', async () => {
    const response = await getJson(`${server.baseUrl}/api/v1/repos/rad:nope/commits`);
    expect(response.status).toBe(400);
  });
});

describe('GET /repos/{rid}/activity', () => {
  it('lists the committer times strictly inside the last 52 weeks in walk order, cached for an hour', async () => {
    const response = await getJson(`${server.baseUrl}/api/v1/repos/${rid('recent')}/activity`);
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600, must-revalidate');
    const expected = [...RECENT_TIMES].reverse().filter((time) => time > NOW - 364 * DAY);
    const walk = await execGit({ gitDir: repositoryByName(built, 'recent').gitDir, args: ['rev-list', '--timestamp', 'HEAD'] });
    const walkTimes = walk
      .toString()
      .trim()
      .split('\n')
      .map((line) => Number(line.split(' ')[0]));
    expect((response.body as Activity).activity).toEqual(walkTimes.filter((time) => expected.includes(time)));
    expect((response.body as Activity).activity.sort()).toEqual([...expected].sort());
  });

  it('is empty for a history older than the window', async () => {
    expect((await getJson(url('/activity'))).body).toEqual({ activity: [] });
  });
});
