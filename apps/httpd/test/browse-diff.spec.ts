import type { CommitDetail, FileDiff, RangeDiffResponse } from '@forge-httpd/api-types';
import { type BuiltHome, repositoryByName } from '@forge-httpd/builder';
import { type Oid } from '@forge-httpd/storage';
import { updateRefs } from '@forge-httpd/storage/write';
import { execGit, type ScratchCommit } from '@forge-httpd/builder/scratch';
import { expectGolden, getJson, type ScratchServer, startScratchServer, type TestServer } from './support/index.js';

const T = 1_700_000_000;
const NOT_FOUND = '{"error":"Not Found","code":404}';
const MAIN_C = ['#include <stdio.h>', '', 'int main(void)', '{', ...Array.from({ length: 12 }, (_, i) => `    step(${i});`), '}', ''].join('\n');
const GUIDE = Array.from({ length: 20 }, (_, i) => `Guide line ${i + 1}\n`).join('');
/** Text whose JSON escaping differs by character class: quotes, controls, C1, separators, astral. */
const ESCAPES = 'quote " backslash \\ tab \t cr \r formfeed \f bell \u0007 unit \u001f del \u007f c1 \u0085 é ē \u2028 \u2029 😀 𝄞\n';
const HUGE = Array.from({ length: 150_000 }, (_, i) => `line ${String(i).padStart(58, '.')}\n`).join('');

const COMMITS: ScratchCommit[] = [
  {
    message: 'Initial import\n',
    time: T,
    changes: [
      { path: 'README.md', content: '# Diff\n' },
      { path: 'src/main.c', content: MAIN_C },
      { path: 'docs/guide.md', content: GUIDE },
      { path: 'assets/logo.bin', content: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]) },
      { path: 'sp ace.txt', content: 'space\n' },
      { path: 'script.sh', content: 'echo hi\n' },
    ],
  },
  {
    message: 'Edit main and rename the guide\n\nThe guide is now the manual.\n',
    time: T + 100,
    changes: [
      { path: 'src/main.c', content: MAIN_C.replace('step(6);', 'step(6 * 2);') },
      { path: 'docs/guide.md', delete: true },
      { path: 'docs/manual.md', content: `${GUIDE}Appendix\n` },
    ],
  },
  { message: 'Side feature\n', time: T + 200, changes: [{ path: 'feature.txt', content: 'feature\n' }] },
  { message: 'Main work\n', time: T + 300, parents: [1], changes: [{ path: 'README.md', content: '# Diff\n\nMain.\n' }] },
  { message: "Merge branch 'side'\n", time: T + 400, parents: [3, 2], changes: [{ path: 'feature.txt', content: 'feature\n' }] },
  {
    message: 'Odd bytes\n',
    time: T + 500,
    changes: [
      { path: 'latin1.txt', content: Buffer.from('caf\xe9\nno final newline', 'latin1') },
      { path: 'link', link: 'README.md' },
      { path: 'sub', submodule: 'ab'.repeat(20) },
      { path: 'script.sh', content: 'echo hi\n', kind: 'executable' },
      { path: 'assets/logo.bin', content: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 9, 9]) },
    ],
  },
  {
    message: 'Remove docs, move a file\n',
    time: T + 600,
    changes: [
      { path: 'docs/manual.md', delete: true },
      { path: 'sp ace.txt', delete: true },
      { path: 'space moved.txt', content: 'space\n' },
    ],
  },
  {
    message: 'Files map limits\n',
    time: T + 700,
    changes: [
      { path: 'one-mib.txt', content: 'a'.repeat(1_048_576) },
      { path: 'over-mib.txt', content: 'b'.repeat(1_048_577) },
    ],
  },
  {
    message: 'Too large\n',
    time: T + 800,
    changes: [
      { path: 'a-before.txt', content: 'before\n' },
      { path: 'huge.txt', content: HUGE },
      { path: 'z-after.txt', content: 'after\n' },
    ],
  },
  {
    message: 'Escapes\n',
    time: T + 900,
    changes: [
      { path: 'escapes.txt', content: ESCAPES },
      { path: 'bom.txt', content: `\ufeff${ESCAPES}` },
      { path: 'nul.txt', content: 'a\u0000b\n' },
      { path: 'latin1.txt', content: Buffer.from('caf\xe9\nstill latin1\n', 'latin1') },
    ],
  },
];

let scratch: ScratchServer;
let built: BuiltHome;
let server: TestServer;
let ids: Oid[];

beforeAll(async () => {
  scratch = await startScratchServer({
    name: 'diffs',
    seed: 'd1'.repeat(32),
    time: T,
    commits: COMMITS,
    prepare: (home, oids) => updateRefs(repositoryByName(home, 'diffs').gitDir, [{ name: 'refs/remotes/origin/feature', oid: oids[2] as Oid }]),
  });
  ({ built, server, ids } = scratch);
}, 60_000);
afterAll(() => scratch?.close());

const base = () => `${server.baseUrl}/api/v1/repos/${repositoryByName(built, 'diffs').rid}`;
const commit = async (index: number): Promise<CommitDetail> => {
  const response = await getJson(`${base()}/commits/${ids[index]}`);
  expect(response.status).toBe(200);
  return response.body as CommitDetail;
};
const summary = (files: FileDiff[]) => files.map((file) => ('path' in file ? [file.status, file.path] : [file.status, file.oldPath, file.newPath]));
const blobOid = async (index: number, path: string) =>
  (await execGit({ gitDir: repositoryByName(built, 'diffs').gitDir, args: ['rev-parse', `${ids[index]}:${path}`] })).toString().trim();

describe('GET /repos/{rid}/commits/{sha}', () => {
  it('answers the commit, its diff with type-first lines, both sides in files and its branches, immutable', async () => {
    const response = await getJson(`${base()}/commits/${ids[1]}`);
    expect(response.headers.get('cache-control')).toBe('public, max-age=604800, immutable');
    expect(response.text).toContain('{"type":"deletion","line":"    step(6);\\n","lineNo":11}');
    expect(response.text).toContain('{"type":"context","line":"    step(3);\\n","lineNoOld":8,"lineNoNew":8}');
    expectGolden('browse-commit', response.body);
  });

  it('shows non-UTF-8 lines as null, symlinks, submodules, mode changes and binary files', async () => {
    const detail = await commit(5);
    expectGolden('browse-commit-odd', detail.diff);
    expect(Object.keys(detail.files)).not.toContain('ab'.repeat(20));
  });

  it('keys the files map by oid ascending', async () => {
    const keys = Object.keys((await commit(1)).files);
    expect(keys).toEqual([...keys].sort());
    expect(keys).toHaveLength(4);
  });

  it('diffs a root commit against the empty tree and a merge against its first parent', async () => {
    const root = await commit(0);
    expect(root.commit.parents).toEqual([]);
    expect(root.diff.files.every((file) => file.status === 'added')).toBe(true);
    expect(summary((await commit(4)).diff.files)).toEqual([['added', 'feature.txt']]);
  });

  it('lists deleted directories file by file and a pure move with `current`', async () => {
    const detail = await commit(6);
    expect(summary(detail.diff.files)).toEqual([
      ['deleted', 'docs/manual.md'],
      ['moved', 'sp ace.txt', 'space moved.txt'],
    ]);
    expect(detail.diff.files[1]).toEqual({
      status: 'moved',
      oldPath: 'sp ace.txt',
      newPath: 'space moved.txt',
      current: { oid: await blobOid(6, 'space moved.txt'), mode: 'blob' },
    });
    expect(detail.diff.stats).toEqual({ filesChanged: 2, insertions: 0, deletions: 21 });
  });

  it('leaves blobs above 1 MiB out of the files map', async () => {
    const detail = await commit(7);
    expect(Object.keys(detail.files)).toEqual([await blobOid(7, 'one-mib.txt')]);
    expect(detail.diff.files).toHaveLength(2);
  });

  it.each([
    ['the commit endpoint', () => `/commits/${ids[8]}`],
    ['the diff endpoint', () => `/diff/${ids[7]}/${ids[8]}`],
  ])('lists files past the 8 MiB diff cap as plain, hunk-less, with git numstat counts and tooLarge on %s', async (_, path) => {
    const response = await getJson(`${base()}${path()}`);
    const { diff } = response.body as CommitDetail;
    const cut = { type: 'plain', hunks: [], eof: 'noneMissing', tooLarge: true };
    expect(diff.files.map((file) => ('diff' in file ? file.diff : null))).toEqual([
      expect.objectContaining({ type: 'plain', stats: { additions: 1, deletions: 0 } }),
      { ...cut, stats: { additions: 150_000, deletions: 0 } },
      { ...cut, stats: { additions: 1, deletions: 0 } },
    ]);
    expect(response.text).toContain('"diff":{"type":"plain","hunks":[],"stats":{"additions":150000,"deletions":0},"eof":"noneMissing","tooLarge":true}');
    expect(diff.stats).toEqual({ filesChanged: 3, insertions: 150_002, deletions: 0 });
  });

  it.each([
    ['the commit endpoint', () => `/commits/${ids[9]}`],
    ['the diff endpoint', () => `/diff/${ids[8]}/${ids[9]}`],
  ])('writes file contents exactly as JSON.stringify would on %s, base64 when not UTF-8', async (_, path) => {
    const response = await getJson(`${base()}${path()}`);
    // Three control characters in ~80 printable ones: binary by git's heuristic, text all the same.
    const expected = [
      [await blobOid(9, 'escapes.txt'), true, ESCAPES],
      [await blobOid(9, 'bom.txt'), true, `\ufeff${ESCAPES}`],
      [await blobOid(9, 'nul.txt'), true, 'a\u0000b\n'],
      [await blobOid(9, 'latin1.txt'), false, Buffer.from('caf\xe9\nstill latin1\n', 'latin1').toString('base64')],
      [await blobOid(8, 'latin1.txt'), false, Buffer.from('caf\xe9\nno final newline', 'latin1').toString('base64')],
    ] as const;
    const { files } = response.body as CommitDetail;
    expect(Object.keys(files)).toEqual(expected.map(([id]) => id).sort());
    for (const [id, binary, content] of expected) {
      expect(files[id]).toEqual({ id, binary, content });
      expect(response.text).toContain(`{"id":"${id}","binary":${binary},"content":${JSON.stringify(content)}}`);
    }
  });

  it('lists the local and remote branches that contain the commit, heads first', async () => {
    expect((await commit(1)).branches).toEqual(['refs/heads/main', 'refs/remotes/origin/feature']);
    expect((await commit(3)).branches).toEqual(['refs/heads/main']);
  });

  it.each([
    [404, 'an unknown commit', '1'.repeat(40), NOT_FOUND],
    [404, 'a tree id', 'TREE', NOT_FOUND],
    [400, 'a short id', 'abc', '{"error":"Invalid sha: expected 40 hexadecimal characters","code":400}'],
    [400, 'a non-hex id', 'g'.repeat(40), '{"error":"Invalid sha: expected 40 hexadecimal characters","code":400}'],
  ])('answers %i for %s', async (status, _, sha, body) => {
    const tree = (await execGit({ gitDir: repositoryByName(built, 'diffs').gitDir, args: ['rev-parse', `${ids[0]}^{tree}`] })).toString().trim();
    const response = await getJson(`${base()}/commits/${sha.replace('TREE', tree)}`);
    expect([response.status, response.text, response.headers.get('cache-control')]).toEqual([status, body, null]);
  });

  it('answers 404 for a commit of a private repository', async () => {
    const response = await getJson(`${server.baseUrl}/api/v1/repos/${repositoryByName(built, 'hidden').rid}/commits/${ids[1]}`);
    expect([response.status, response.text]).toEqual([404, NOT_FOUND]);
  });
});

describe('GET /repos/{rid}/diff/{base}/{oid}', () => {
  it('answers the tree diff with line-first lines, files and the commits after base, immutable', async () => {
    const response = await getJson(`${base()}/diff/${ids[0]}/${ids[4]}`);
    expect(response.headers.get('cache-control')).toBe('public, max-age=604800, immutable');
    expect(response.text).toContain('{"line":"    step(6);\\n","lineNo":11,"type":"deletion"}');
    const body = response.body as RangeDiffResponse;
    expect(body.commits.map((item) => item.id)).toEqual([4, 3, 2, 1].map((index) => ids[index]));
    expectGolden('browse-diff', body);
  });

  it('lists the whole history of oid when base is not an ancestor, and nothing when they are equal', async () => {
    const unrelated = (await getJson(`${base()}/diff/${ids[2]}/${ids[3]}`)).body as RangeDiffResponse;
    expect(unrelated.commits.map((item) => item.id)).toEqual([3, 1, 0].map((index) => ids[index]));
    const same = (await getJson(`${base()}/diff/${ids[5]}/${ids[5]}`)).body as RangeDiffResponse;
    expect(same).toEqual({ diff: { files: [], stats: { filesChanged: 0, insertions: 0, deletions: 0 } }, files: {}, commits: [] });
  });

  it.each([
    [404, 'an unknown base', () => `${'1'.repeat(40)}/${ids[1]}`],
    [404, 'an unknown oid', () => `${ids[1]}/${'2'.repeat(40)}`],
    [400, 'a malformed base', () => `xyz/${ids[1]}`],
  ])('answers %i for %s', async (status, _, path) => {
    const response = await getJson(`${base()}/diff/${path()}`);
    expect(response.status).toBe(status);
    if (status === 404) expect(response.text).toBe(NOT_FOUND);
  });
});
