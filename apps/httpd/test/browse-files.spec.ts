import type { Blob, Tree } from '@forge-httpd/api-types';
import { type BuiltHome, repositoryByName } from '@forge-httpd/builder';
import { type Oid } from '@forge-httpd/storage';
import { updateRefs } from '@forge-httpd/storage/write';
import type { ScratchChange, ScratchCommit } from '@forge-httpd/builder/scratch';
import { expectGolden, getJson, rawRequest, type ScratchServer, startScratchServer, type TestServer } from './support/index.js';

const T = 1_700_000_000;
const NOT_FOUND = '{"error":"Not Found","code":404}';
const LIMIT = 4_194_304;
const BOB = { name: 'Bob Files', email: 'bob@example.com' };

const FILES: ScratchChange[] = [
  { path: 'README.md', content: '# Files\n' },
  { path: 'src/main.rs', content: 'fn main() {}\n' },
  { path: 'src/lib/deep/file.rs', content: 'fn deep() {}\n' },
  { path: 'B.txt', content: 'B\n' },
  { path: 'a.txt', content: 'a\n' },
  { path: '_under', content: '_\n' },
  { path: 'Zdir/x', content: 'x\n' },
  { path: 'adir/y', content: 'y\n' },
  { path: 'with space.txt', content: 'space\n' },
  { path: 'ünïcode.md', content: 'ü\n' },
  { path: 'latin1.txt', content: Buffer.from('caf\xe9\n', 'latin1') },
  { path: 'bin.dat', content: Buffer.from([0x89, 0x50, 0, 1, 2]) },
  { path: 'bom.txt', content: '\ufeffbom\n' },
  { path: 'exact.txt', content: 'x'.repeat(LIMIT) },
  { path: 'over.txt', content: 'y'.repeat(LIMIT + 1) },
  { path: 'link', link: 'README.md' },
  { path: 'sub', submodule: 'cd'.repeat(20) },
  { path: 'run.sh', content: 'echo\n', kind: 'executable' },
];

const COMMITS: ScratchCommit[] = [
  { message: 'Add files\n', time: T, changes: FILES },
  { message: 'Edit the readme\n', time: T + 100, author: BOB, changes: [{ path: 'README.md', content: '# Files\n\nEdited.\n' }] },
  {
    message: 'Readme variants\n',
    time: T + 200,
    changes: [
      { path: 'README.md', delete: true },
      { path: 'README/inner', content: 'dir\n' },
      { path: 'readme.org', content: '* org\n' },
      { path: 'Readme.md', content: 'Readme\n' },
    ],
  },
  { message: 'Lower case only\n', time: T + 300, changes: [{ path: 'Readme.md', delete: true }] },
  {
    message: 'No readme\n',
    time: T + 400,
    changes: [
      { path: 'readme.org', delete: true },
      { path: 'README/inner', delete: true },
    ],
  },
  {
    message: 'Huge readme\n',
    time: T + 500,
    changes: [
      { path: 'README.md', content: 'r'.repeat(LIMIT + 1) },
      { path: 'README.txt', content: 'small\n' },
    ],
  },
];

let scratch: ScratchServer;
let built: BuiltHome;
let server: TestServer;
let ids: Oid[];

beforeAll(async () => {
  scratch = await startScratchServer({
    name: 'files',
    seed: 'f1'.repeat(32),
    time: T,
    commits: COMMITS,
    prepare: (home, oids) => updateRefs(repositoryByName(home, 'files').gitDir, [{ name: 'refs/heads/extra', oid: oids[0] as Oid }]),
  });
  ({ built, server, ids } = scratch);
}, 60_000);
afterAll(() => scratch?.close());

const repo = (name = 'files') => `${server.baseUrl}/api/v1/repos/${repositoryByName(built, name).rid}`;
const get = (path: string) => getJson(`${repo()}${path}`);

describe('GET /repos/{rid}/tree/{sha}/{path}', () => {
  it('lists the root: trees and submodules first, then blobs, each by name bytes; immutable', async () => {
    const response = await get(`/tree/${ids[1]}/`);
    expect(response.headers.get('cache-control')).toBe('public, max-age=604800, immutable');
    const tree = response.body as Tree;
    expect(tree.entries.map((entry) => `${entry.kind}:${entry.name}`).slice(0, 5)).toEqual([
      'tree:Zdir',
      'tree:adir',
      'tree:src',
      'submodule:sub',
      'blob:B.txt',
    ]);
    expect(tree.lastCommit.id).toBe(ids[1]);
    expectGolden('browse-tree-root', tree);
  });

  it.each([
    ['src/lib', 'lib', ['src/lib/deep']],
    ['src/lib/', '', ['src/lib/deep']],
    ['src', 'src', ['src/lib', 'src/main.rs']],
  ])('lists %j with name %j and joined entry paths', async (path, name, paths) => {
    const tree = (await get(`/tree/${ids[1]}/${path}`)).body as Tree;
    expect([tree.path, tree.name, tree.entries.map((entry) => entry.path)]).toEqual([path, name, paths]);
  });

  it.each([
    ['a file', `${'ID1'}/README.md`],
    ['a submodule', 'ID1/sub'],
    ['a symlink', 'ID1/link'],
    ['a missing path', 'ID1/nope'],
    ['an unknown commit', `${'1'.repeat(40)}/`],
    ['a path that existed only later', 'ID0/README/'],
  ])('answers 404 for %s', async (_, path) => {
    const response = await get(`/tree/${path.replace('ID1', ids[1] ?? '').replace('ID0', ids[0] ?? '')}`);
    expect([response.status, response.text, response.headers.get('cache-control')]).toEqual([404, NOT_FOUND, null]);
  });

  it('has no route for /tree/{sha} without a slash', async () => {
    expect((await get(`/tree/${ids[1]}`)).status).toBe(404);
  });
});

describe('GET /repos/{rid}/blob/{sha}/{path}', () => {
  it('answers a text file with the last commit that touched it', async () => {
    const response = await get(`/blob/${ids[1]}/README.md`);
    expect(response.headers.get('cache-control')).toBe('public, max-age=604800, immutable');
    expectGolden('browse-blob', response.body);
    expect(((await get(`/blob/${ids[1]}/src/lib/deep/file.rs`)).body as Blob).lastCommit.id).toBe(ids[0]);
  });

  it.each([
    ['bin.dat', true, Buffer.from([0x89, 0x50, 0, 1, 2]).toString('base64')],
    ['latin1.txt', false, Buffer.from('caf\xe9\n', 'latin1').toString('base64')],
    ['bom.txt', false, '\ufeffbom\n'],
    ['link', false, 'README.md'],
    ['ünïcode.md', false, 'ü\n'],
    ['with space.txt', false, 'space\n'],
  ])('serves %s with binary=%s and its content', async (path, binary, content) => {
    const blob = (await get(`/blob/${ids[1]}/${encodeURIComponent(path)}`)).body as Blob;
    expect([blob.name, blob.path, blob.binary, blob.content]).toEqual([path, path, binary, content]);
  });

  it('serves exactly 4194304 bytes and answers 413 [] with no-cache one byte above', async () => {
    const exact = await get(`/blob/${ids[1]}/exact.txt`);
    expect([exact.status, (exact.body as Blob).content.length]).toEqual([200, LIMIT]);
    const over = await get(`/blob/${ids[1]}/over.txt`);
    expect([over.status, over.text, over.headers.get('cache-control')]).toEqual([413, '[]', 'no-cache']);
    expect(over.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it.each(['src', 'src/', 'sub', 'README.md/', 'nope.txt', ''])('answers 404 for the path %j', async (path) => {
    const response = await get(`/blob/${ids[1]}/${path}`);
    expect([response.status, response.headers.get('cache-control')]).toEqual([404, null]);
  });

  it('answers 404 for an unknown commit and 400 for a malformed one', async () => {
    expect((await get(`/blob/${'2'.repeat(40)}/README.md`)).text).toBe(NOT_FOUND);
    expect((await get('/blob/xyz/README.md')).status).toBe(400);
  });
});

describe('hostile paths', () => {
  it.each([
    '/tree/ID/..',
    '/tree/ID/src/../..',
    '/tree/ID/%2e%2e/%2e%2e/etc',
    '/tree/ID//etc',
    '/tree/ID/src/./lib',
    '/blob/ID/..%2F..%2Fetc%2Fpasswd',
    '/blob/ID/../../etc/passwd',
    '/blob/ID/%2e%2e/README.md',
    '/blob/ID/--output=x',
    '/blob/ID//etc/passwd',
    '/blob/ID/README.md%00',
    '/blob/ID/%00',
    '/blob/ID/src/%00/main.rs',
    '/blob/ID/%ff%fe',
    '/blob/ID/a%zzb',
    '/tree/ID/-c%20core.pager=x',
    '/blob/ID/:(top)README.md',
    '/blob/ID/*',
  ])('answers %s with 404 or 400, never 5xx', async (path) => {
    const response = await rawRequest(server.baseUrl, {
      path: `/api/v1/repos/${repositoryByName(built, 'files').rid}${path.replace('ID', ids[1] ?? '')}`,
    });
    expect([400, 404]).toContain(response.status);
  });
});

describe('GET /repos/{rid}/readme/{sha}', () => {
  it.each([
    [1, 'README.md'],
    [2, 'Readme.md'],
    [3, 'readme.org'],
  ])('picks the first candidate at commit %i: %s', async (index, path) => {
    const response = await get(`/readme/${ids[index]}`);
    expect(response.headers.get('cache-control')).toBe('public, max-age=604800, immutable');
    expect([(response.body as Blob).path, (response.body as Blob).name]).toEqual([path, path]);
  });

  it('answers 404 when no candidate is a file, and for an unknown commit', async () => {
    expect((await get(`/readme/${ids[4]}`)).text).toBe(NOT_FOUND);
    expect((await get(`/readme/${'3'.repeat(40)}`)).text).toBe(NOT_FOUND);
  });

  it('answers 413 when the winner is too large, without falling back', async () => {
    const response = await get(`/readme/${ids[5]}`);
    expect([response.status, response.text, response.headers.get('cache-control')]).toEqual([413, '[]', 'no-cache']);
  });
});

describe('GET /repos/{rid}/stats/tree/{sha}', () => {
  it('counts commits and distinct authors from the commit and every branch of the repository', async () => {
    const response = await get(`/stats/tree/${ids[1]}`);
    expect(response.headers.get('cache-control')).toBe('public, max-age=604800, immutable');
    expect(response.text).toBe('{"commits":2,"branches":2,"contributors":2}');
    expect((await get(`/stats/tree/${ids[0]}`)).body).toEqual({ commits: 1, branches: 2, contributors: 1 });
  });

  it('answers 404 for an unknown commit and for a private repository', async () => {
    expect((await get(`/stats/tree/${'4'.repeat(40)}`)).text).toBe(NOT_FOUND);
    expect((await getJson(`${repo('hidden')}/stats/tree/${ids[1]}`)).text).toBe(NOT_FOUND);
    expect((await getJson(`${repo('hidden')}/tree/${ids[1]}/`)).text).toBe(NOT_FOUND);
    expect((await getJson(`${repo('hidden')}/blob/${ids[1]}/README.md`)).text).toBe(NOT_FOUND);
    expect((await getJson(`${repo('hidden')}/readme/${ids[1]}`)).text).toBe(NOT_FOUND);
  });
});
