import type { Blame, LastCommits, Tree } from '@forge-httpd/api-types';
import { type BuiltHome, repositoryByName } from '@forge-httpd/builder';
import { execGit, type ScratchChange, type ScratchCommit } from '@forge-httpd/builder/scratch';
import type { Oid } from '@forge-httpd/storage';
import { gitBlameRanges, gitLastCommit } from './support/blame-oracle.js';
import { ABSENT_RID, getJson, type ScratchServer, startScratchServer, type TestServer } from './support/index.js';

const T = 1_700_000_000;
const LIMIT = 4_194_304;
const NOT_FOUND = '{"error":"Not Found","code":404}';
const IMMUTABLE = 'public, max-age=604800, immutable';
const lines = (prefix: string, count: number): string => Array.from({ length: count }, (_, at) => `${prefix} line ${at + 1}\n`).join('');
const WIDE: ScratchChange[] = Array.from({ length: 1001 }, (_, at) => ({ path: `wide/f${String(at).padStart(4, '0')}`, content: `${at}\n` }));

/** Edge cases of line attribution and of last commits, oldest first. */
function edgeHistory(): ScratchCommit[] {
  const many = Array.from({ length: 12 }, (_, at) => `many ${at + 1}\n`);
  const commits: ScratchCommit[] = [
    {
      message: 'Start\n',
      time: T,
      changes: [
        { path: 'many.txt', content: many.join('') },
        { path: 'empty.txt', content: '' },
        { path: 'bin.dat', content: Buffer.from([0x89, 0x50, 0, 1, 2, 10]) },
        { path: 'big.txt', content: 'y\n'.repeat(LIMIT / 2 + 1) },
        { path: 'old/name.txt', content: lines('renamed', 20) },
        { path: Buffer.from('caf\xe9/n\xe4me.txt', 'latin1'), content: 'latin1 name\n' },
        { path: 'latin1.txt', content: Buffer.from('caf\xe9\nna\xefve\n', 'latin1') },
        { path: 'crlf.txt', content: 'one\r\ntwo\r\n' },
        { path: 'nonl.txt', content: 'first\nno newline' },
        { path: 'ünï/côde.txt', content: 'ü\n' },
        { path: 'sub', submodule: 'cd'.repeat(20) },
        { path: 'link', link: 'many.txt' },
      ],
    },
  ];
  // One file changed by many commits, a line each; some commits share a time.
  for (let at = 0; at < 24; at += 1) {
    many[at % 12] = `many ${(at % 12) + 1} edit ${at}\n`;
    commits.push({ message: `Edit ${at}\n`, time: T + 10 * (1 + Math.floor(at / 3)), changes: [{ path: 'many.txt', content: many.join('') }] });
  }
  const base = commits.length - 1;
  const renamed = lines('renamed', 20).replace('renamed line 7\n', 'renamed line 7 changed\n');
  commits.push({
    message: 'Rename\n',
    time: T + 500,
    changes: [
      { path: 'old/name.txt', delete: true },
      { path: 'new/name.txt', content: renamed },
    ],
  });
  commits.push({
    message: 'Copy\n',
    time: T + 510,
    changes: [
      { path: 'copy.txt', content: many.join('') },
      { path: 'nonl.txt', content: 'first\nno newline, edited' },
    ],
  });
  // A side branch from `base` and a merge that keeps changes of both sides and adds its own.
  const side = [...many];
  side[1] = 'many 2 from side\n';
  commits.push({
    message: 'Side\n',
    time: T + 520,
    parents: [base],
    changes: [
      { path: 'many.txt', content: side.join('') },
      { path: 'latin1.txt', content: Buffer.from('caf\xe9\nna\xefve\nside \xff\n', 'latin1') },
    ],
  });
  const sideAt = commits.length - 1;
  const main = [...many];
  main[8] = 'many 9 from main\n';
  commits.push({ message: 'Main\n', time: T + 530, parents: [sideAt - 1], changes: [{ path: 'many.txt', content: main.join('') }] });
  const merged = [...main];
  merged[1] = 'many 2 from side\n';
  merged.push('added by the merge\n');
  commits.push({
    message: "Merge branch 'side'\n",
    time: T + 540,
    parents: [sideAt + 1, sideAt],
    changes: [
      { path: 'many.txt', content: merged.join('') },
      { path: 'latin1.txt', content: Buffer.from('caf\xe9\nna\xefve\nside \xff\n', 'latin1') },
    ],
  });
  commits.push({ message: 'Submodule and wide folder\n', time: T + 550, changes: [{ path: 'sub', submodule: 'ef'.repeat(20) }, ...WIDE] });
  commits.push({ message: 'Crlf\n', time: T + 560, changes: [{ path: 'crlf.txt', content: 'one\r\ntwo changed\r\nthree\r\n' }] });
  return commits;
}

let scratch: ScratchServer;
let built: BuiltHome;
let server: TestServer;
let ids: Oid[];
let gitDir: string;
let tip: Oid;

beforeAll(async () => {
  scratch = await startScratchServer({ name: 'edges', seed: 'b1'.repeat(32), time: T, commits: edgeHistory() });
  ({ built, server, ids } = scratch);
  gitDir = repositoryByName(built, 'edges').gitDir;
  tip = ids[ids.length - 1] as Oid;
}, 120_000);

afterAll(() => scratch?.close());

const repo = (name = 'edges'): string => `${server.baseUrl}/api/v1/repos/${repositoryByName(built, name).rid}`;
const encodePath = (path: string): string => path.split('/').map(encodeURIComponent).join('/');

async function blameOf(sha: string, path: string): Promise<Blame> {
  const response = await getJson(`${repo()}/blame/${sha}/${encodePath(path)}`);
  expect([path, response.status]).toEqual([path, 200]);
  return response.body as Blame;
}

/** Every commit's answer equals git's own, range by range, and names exactly the commits it uses. */
async function expectBlameAsGit(sha: string, path: string): Promise<Blame> {
  const blame = await blameOf(sha, path);
  expect({ path, ranges: blame.ranges }).toEqual({ path, ranges: await gitBlameRanges(gitDir, sha, path) });
  expect(Object.keys(blame.commits).sort()).toEqual([...new Set(blame.ranges.map((range) => range.commit))].sort());
  for (const [oid, commit] of Object.entries(blame.commits)) expect(commit.id).toBe(oid);
  expect(blame.lines).toBe(blame.ranges.at(-1)?.end ?? 0);
  return blame;
}

describe('GET /repos/{rid}/blame/{sha}/{path}', () => {
  it.each(['many.txt', 'new/name.txt', 'copy.txt', 'latin1.txt', 'crlf.txt', 'nonl.txt', 'ünï/côde.txt', 'link', 'wide/f0999'])(
    'attributes every line of %s as git blame does, at every commit that has it',
    async (path) => {
      // Every commit that changed it (and the tip), as git lists them.
      const changed = (await git(['--literal-pathspecs', 'rev-list', tip, '--', path])).split('\n').filter((line) => line !== '');
      for (const sha of new Set([tip, ...changed])) await expectBlameAsGit(sha, path);
    },
    120_000,
  );

  it('follows a rename and a merge with changes on both sides, in maximal runs', async () => {
    const renamed = await expectBlameAsGit(tip, 'new/name.txt');
    expect(renamed.ranges.map((range) => [range.start, range.end, range.origPath])).toEqual([
      [1, 6, 'old/name.txt'],
      [7, 7, 'new/name.txt'],
      [8, 20, 'old/name.txt'],
    ]);
    const many = await expectBlameAsGit(tip, 'many.txt');
    const messages = many.ranges.map((range) => many.commits[range.commit]?.summary);
    expect(messages).toEqual(expect.arrayContaining(['Side', 'Main', "Merge branch 'side'"]));
    expect(many).toMatchObject({ path: 'many.txt', commit: tip, lines: 13 });
  });

  it('answers an empty file with no lines and no ranges, immutable', async () => {
    const response = await getJson(`${repo()}/blame/${tip}/empty.txt`);
    expect([response.status, response.body, response.headers.get('cache-control')]).toEqual([
      200,
      { path: 'empty.txt', commit: tip, lines: 0, ranges: [], commits: {} },
      IMMUTABLE,
    ]);
    expect(response.headers.get('etag')).toMatch(/^"/);
  });

  it('answers 400 for a binary file, 413 as the blob route above 4 MiB, 404 for folders, submodules and absent paths', async () => {
    const binary = await getJson(`${repo()}/blame/${tip}/bin.dat`);
    expect([binary.status, (binary.body as { error: string }).error]).toEqual([400, 'Invalid path: a binary file has no lines to blame']);
    const big = await getJson(`${repo()}/blame/${tip}/big.txt`);
    expect([big.status, big.text, big.headers.get('cache-control')]).toEqual([413, '[]', 'no-cache']);
    for (const path of ['new', 'new/', 'sub', 'absent.txt', 'many.txt/x', '', 'wide/']) {
      const response = await getJson(`${repo()}/blame/${tip}/${path}`);
      expect([path, response.status, response.text, response.headers.get('cache-control')]).toEqual([path, 404, NOT_FOUND, null]);
    }
    const absentCommit = await getJson(`${repo()}/blame/${'0'.repeat(40)}/many.txt`);
    expect([absentCommit.status, absentCommit.text]).toEqual([404, NOT_FOUND]);
    const malformed = await getJson(`${repo()}/blame/${tip.slice(1)}/many.txt`);
    expect(malformed.status).toBe(400);
  });

  it('never reads a path as an option or a pathspec', async () => {
    for (const path of ['--help', '-L1,2', ':(glob)*.txt', '*.txt', 'many.tx?']) {
      const response = await getJson(`${repo()}/blame/${tip}/${encodeURIComponent(path)}`);
      expect([path, response.status, response.text]).toEqual([path, 404, NOT_FOUND]);
    }
  });
});

describe('GET /repos/{rid}/last-commits/{sha}/{path}', () => {
  /** Every entry's commit equals `git log -1 <sha> -- <entry path>`, in the tree route's order. */
  async function expectLastCommitsAsGit(sha: string, path: string): Promise<LastCommits> {
    const response = await getJson(`${repo()}/last-commits/${sha}/${encodePath(path)}`);
    expect([sha, path, response.status, response.headers.get('cache-control')]).toEqual([sha, path, 200, IMMUTABLE]);
    const answer = response.body as LastCommits;
    const tree = (await getJson(`${repo()}/tree/${sha}/${encodePath(path)}`)).body as Tree;
    expect(answer.entries.map((entry) => [entry.name, entry.path])).toEqual(tree.entries.slice(0, 1000).map((entry) => [entry.name, entry.path]));
    expect(answer.truncated).toBe(tree.entries.length > 1000);
    const sample = answer.entries.filter((_, at) => at < 40 || at % 97 === 0);
    for (const entry of sample) {
      // Names git stores as other bytes than UTF-8 cannot be named on a command line: checked below.
      if (entry.path.includes('\ufffd')) continue;
      expect([entry.path, entry.commit.id]).toEqual([entry.path, await gitLastCommit(gitDir, sha, entry.path)]);
    }
    return answer;
  }

  it('names the blob page’s last commit for every entry of every folder, at every fifth commit', async () => {
    for (const sha of ids.filter((_, at) => at % 5 === 0 || at >= ids.length - 6)) {
      for (const folder of ['', 'new', 'old', 'ünï']) {
        const kind = (await git(['cat-file', '-t', `${sha}:${folder}`]).catch(() => '')).trim();
        if (kind === 'tree') await expectLastCommitsAsGit(sha, folder);
      }
    }
    for (const entry of (await expectLastCommitsAsGit(tip, '')).entries) {
      if (!entry.path.includes('\ufffd')) {
        const blob = await getJson(`${repo()}/blob/${tip}/${encodePath(entry.path)}`);
        if (blob.status === 200) expect([entry.path, (blob.body as { lastCommit: { id: string } }).lastCommit.id]).toEqual([entry.path, entry.commit.id]);
      }
    }
  }, 120_000);

  it('names folders, submodules and names that are not UTF-8 too', async () => {
    const root = await expectLastCommitsAsGit(tip, '');
    const byName = new Map(root.entries.map((entry) => [entry.name, entry.commit.summary]));
    expect(byName.get('sub')).toBe('Submodule and wide folder');
    expect(byName.get('new')).toBe('Rename');
    expect(byName.get('many.txt')).toBe("Merge branch 'side'");
    expect(byName.get('caf\ufffd')).toBe('Start');
    // The merge took the side's version as it was: unchanged against that parent, so git follows it.
    expect(byName.get('latin1.txt')).toBe('Side');
    const atSide = await expectLastCommitsAsGit(ids[ids.length - 5] as Oid, '');
    expect(new Map(atSide.entries.map((entry) => [entry.name, entry.commit.summary])).get('latin1.txt')).toBe('Side');
  });

  it('answers at most 1,000 entries, then says truncated', async () => {
    const wide = await expectLastCommitsAsGit(tip, 'wide');
    expect([wide.entries.length, wide.truncated, wide.entries.at(-1)?.name]).toEqual([1000, true, 'f0999']);
    expect(new Set(wide.entries.map((entry) => entry.commit.summary))).toEqual(new Set(['Submodule and wide folder']));
    const trailing = await getJson(`${repo()}/last-commits/${tip}/wide/`);
    expect((trailing.body as LastCommits).path).toBe('wide/');
  }, 60_000);

  it('answers 404 for files, submodules, absent paths and commits; 400 for a malformed commit', async () => {
    for (const path of ['many.txt', 'sub', 'absent', 'new/name.txt/']) {
      const response = await getJson(`${repo()}/last-commits/${tip}/${path}`);
      expect([path, response.status, response.text, response.headers.get('cache-control')]).toEqual([path, 404, NOT_FOUND, null]);
    }
    expect((await getJson(`${repo()}/last-commits/${'0'.repeat(40)}/`)).text).toBe(NOT_FOUND);
    expect((await getJson(`${repo()}/last-commits/xyz/`)).status).toBe(400);
  });
});

describe('privacy and caching of both routes', () => {
  const routes = (sha: string): string[] => [
    `blame/${sha}/many.txt`,
    `blame/${sha}/bin.dat`,
    `blame/${sha}/big.txt`,
    `last-commits/${sha}/`,
    `last-commits/${sha}/new`,
  ];

  it('answers a private repository exactly as an absent one', async () => {
    for (const route of routes(tip)) {
      const hidden = await getJson(`${repo('hidden')}/${route}`);
      const absent = await getJson(`${server.baseUrl}/api/v1/repos/${ABSENT_RID}/${route}`);
      expect([route, hidden.status, hidden.text, [...hidden.headers].filter(([name]) => name !== 'date')]).toEqual([
        route,
        absent.status,
        absent.text,
        [...absent.headers].filter(([name]) => name !== 'date'),
      ]);
      expect(hidden.status).toBe(404);
    }
  });

  it('serves a repeat with the same bytes and ETag, and 304 to If-None-Match', async () => {
    for (const route of [`blame/${tip}/many.txt`, `last-commits/${tip}/`]) {
      const first = await getJson(`${repo()}/${route}`);
      const again = await getJson(`${repo()}/${route}`);
      const etag = first.headers.get('etag') ?? '';
      expect([again.text, again.headers.get('etag'), again.headers.get('cache-control')]).toEqual([first.text, etag, IMMUTABLE]);
      const revalidated = await fetch(`${repo()}/${route}`, { headers: { 'if-none-match': etag } });
      expect([revalidated.status, await revalidated.text()]).toEqual([304, '']);
    }
  });
});

async function git(args: string[]): Promise<string> {
  return (await execGit({ gitDir, args })).toString('utf8');
}
