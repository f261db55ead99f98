import { existsSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type BuiltHome, repositoryByName } from '@forge-httpd/builder';
import { keyPairFromSeed } from '@forge-httpd/identity';
import type { Oid } from '@forge-httpd/storage';
import type { ScratchCommit } from '@forge-httpd/builder/scratch';
import { ABSENT_RID, getBytes, makeTempDir, removeTempDir, runGitClient, type ScratchServer, startScratchServer, type TestServer } from './support/index.js';

const T = 1_700_000_000;
const NOT_FOUND = '{"error":"Not Found","code":404}';
const COMMITS: ScratchCommit[] = Array.from({ length: 6 }, (_, index) => ({
  message: `Commit ${index}\n`,
  time: T + index * 100,
  changes: [
    { path: 'README.md', content: `# Clone me\n\nversion ${index}\n` },
    { path: `src/file-${index}.txt`, content: `${'line\n'.repeat(50)}${index}\n` },
  ],
}));

let scratch: ScratchServer;
let built: BuiltHome;
let server: TestServer;
let ids: Oid[];
let work: string;
let branch: string;

beforeAll(async () => {
  scratch = await startScratchServer({ name: 'clone', seed: 'c1'.repeat(32), time: T, commits: COMMITS });
  ({ built, server, ids } = scratch);
  branch = repositoryByName(built, 'clone').defaultBranch;
  work = await makeTempDir();
}, 60_000);
afterAll(async () => {
  await removeTempDir(work);
  await scratch?.close();
});

const rid = (name = 'clone'): string => repositoryByName(built, name).rid;
const url = (suffix = '', name = 'clone'): string => `${server.baseUrl}/${rid(name)}.git${suffix}`;
const last = (): string => ids.at(-1) as string;
let clones = 0;
const target = (): string => join(work, `clone-${(clones += 1)}`);
const git = (...args: string[]) => runGitClient(args, work);

/** A pkt-line (gitprotocol-common(5)): 4 hex digits of length, then the data. */
const pkt = (line: string): string => `${(line.length + 4).toString(16).padStart(4, '0')}${line}`;
const LS_REFS_V2 = `${pkt('command=ls-refs\n')}0001${pkt('symrefs\n')}${pkt('ref-prefix refs/heads/\n')}0000`;

describe('git clone and fetch over smart HTTP', () => {
  it('clones with protocol v2 and checks out the canonical head', async () => {
    const dir = target();
    await git('-c', 'protocol.version=2', 'clone', '--quiet', url(), dir);
    expect((await runGitClient(['rev-parse', 'HEAD'], dir)).stdout.trim()).toBe(last());
    expect(await readFile(join(dir, 'README.md'), 'utf8')).toBe('# Clone me\n\nversion 5\n');
  });

  it('clones with protocol v0, also without .git and with rad:', async () => {
    const dir = target();
    await git('-c', 'protocol.version=0', 'clone', '--quiet', `${server.baseUrl}/${rid()}`, dir);
    expect((await runGitClient(['rev-list', '--count', 'HEAD'], dir)).stdout.trim()).toBe(String(ids.length));
  });

  it('lists the top-level refs with ls-remote (v2) but no peer namespace', async () => {
    const { stdout } = await git('-c', 'protocol.version=2', 'ls-remote', url());
    expect(stdout).toContain(`${last()}\tHEAD`);
    expect(stdout).toContain(`${last()}\trefs/heads/${branch}`);
    expect(stdout).toContain('\trefs/rad/id');
    expect(stdout).not.toContain('refs/namespaces/');
  });

  it("serves a peer's namespace at /{rid}.git/{nid}", async () => {
    const { stdout } = await git('ls-remote', url(`/${built.nid}`));
    expect(stdout).toContain(`${last()}\trefs/heads/${branch}`);
    expect(stdout).toContain('\trefs/rad/sigrefs');
    const dir = target();
    await git('clone', '--quiet', '--branch', branch, url(`/${built.nid}`), dir);
    expect((await runGitClient(['rev-parse', 'HEAD'], dir)).stdout.trim()).toBe(last());
  });

  it('makes a shallow clone with --depth 1', async () => {
    const dir = target();
    await git('clone', '--quiet', '--depth', '1', url(), dir);
    expect((await runGitClient(['rev-list', '--count', 'HEAD'], dir)).stdout.trim()).toBe('1');
    expect(existsSync(join(dir, '.git', 'shallow'))).toBe(true);
  });

  it('makes a partial clone with --filter=blob:none and fetches blobs on demand', async () => {
    const dir = target();
    await git('clone', '--quiet', '--filter=blob:none', '--no-checkout', url(), dir);
    const missing = (await runGitClient(['rev-list', '--objects', '--all', '--missing=print'], dir)).stdout;
    expect(missing.split('\n').filter((line) => line.startsWith('?')).length).toBeGreaterThan(0);
    await runGitClient(['checkout', '--quiet', branch], dir);
    expect(await readFile(join(dir, 'README.md'), 'utf8')).toBe('# Clone me\n\nversion 5\n');
  });

  it('fetches a commit that is no ref tip by its id', async () => {
    const dir = target();
    await git('init', '--quiet', dir);
    await runGitClient(['fetch', '--quiet', url(), ids[1] as string], dir);
    expect((await runGitClient(['cat-file', '-t', ids[1] as string], dir)).stdout.trim()).toBe('commit');
  });

  it('fetches new history into an existing clone', async () => {
    const dir = target();
    await git('clone', '--quiet', '--depth', '2', url(), dir);
    await runGitClient(['fetch', '--quiet', '--unshallow'], dir);
    expect((await runGitClient(['rev-list', '--count', 'HEAD'], dir)).stdout.trim()).toBe(String(ids.length));
  });
});

describe('the protocol endpoints', () => {
  it('answers info/refs v0 with the service packet and no-cache headers', async () => {
    const response = await getBytes(url('/info/refs?service=git-upload-pack'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-git-upload-pack-advertisement');
    expect(response.headers.get('cache-control')).toBe('no-cache, max-age=0, must-revalidate');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.bytes.toString('latin1').startsWith('001e# service=git-upload-pack\n0000')).toBe(true);
  });

  it('answers info/refs v2 with the capability advertisement', async () => {
    const response = await getBytes(url('/info/refs?service=git-upload-pack'), { headers: { 'git-protocol': 'version=2' } });
    expect(response.bytes.toString('latin1').startsWith('000eversion 2\n')).toBe(true);
  });

  it('reads a gzip-compressed request body', async () => {
    const response = await getBytes(url('/git-upload-pack'), {
      method: 'POST',
      body: gzipSync(LS_REFS_V2),
      headers: {
        'content-type': 'application/x-git-upload-pack-request',
        'content-encoding': 'gzip',
        'git-protocol': 'version=2',
      },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-git-upload-pack-result');
    expect(response.bytes.toString('latin1')).toContain(`${last()} refs/heads/${branch}`);
  });

  it('answers HEAD on info/refs without a body', async () => {
    const response = await getBytes(url('/info/refs?service=git-upload-pack'), { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.bytes.length).toBe(0);
  });

  it.each([
    ['a malformed rid', () => `${server.baseUrl}/nope.git/info/refs?service=git-upload-pack`],
    ['a peer with no namespace', () => url(`/${keyPairFromSeed(new Uint8Array(32).fill(13)).nid}/info/refs?service=git-upload-pack`)],
    ['a malformed peer', () => url('/z6Mknope/info/refs?service=git-upload-pack')],
  ])('answers 404 for %s', async (_case, path) => {
    const response = await getBytes(path());
    expect(response.status).toBe(404);
    expect(response.bytes.toString()).toBe(NOT_FOUND);
  });

  it('answers 413 to a request body past the cap, also when it only grows in gunzip', async () => {
    // Valid pkt-lines that git keeps reading (ls-refs arguments), so only our cap can end it.
    const line = pkt('ref-prefix refs/heads/a-long-prefix-that-repeats\n');
    const bomb = gzipSync(`${pkt('command=ls-refs\n')}0001${line.repeat(Math.ceil((17 * 1024 * 1024) / line.length))}0000`);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const headers = { 'content-type': 'application/x-git-upload-pack-request', 'git-protocol': 'version=2' };
    const inflated = await getBytes(url('/git-upload-pack'), { method: 'POST', body: bomb, headers: { ...headers, 'content-encoding': 'gzip' } });
    expect(inflated.status).toBe(413);
    expect(inflated.bytes.toString()).toBe('{"error":"Payload Too Large","code":413}');
    // A declared length past the cap is refused before any of the body is read.
    const declared = await new Promise<number | undefined>((resolve, reject) => {
      const request = httpRequest(url('/git-upload-pack'), { method: 'POST', headers: { ...headers, 'content-length': 17 * 1024 * 1024 } }, (response) => {
        response.resume();
        resolve(response.statusCode);
        request.destroy();
      });
      request.on('error', reject);
      request.flushHeaders();
    });
    expect(declared).toBe(413);
  });

  it('refuses pushes with 403', async () => {
    const advertised = await getBytes(url('/info/refs?service=git-receive-pack'));
    expect(advertised.status).toBe(403);
    expect(advertised.bytes.toString()).toBe('{"error":"Forbidden","code":403}');
    expect(advertised.headers.get('access-control-allow-origin')).toBe('*');
    const posted = await getBytes(url('/git-receive-pack'), {
      method: 'POST',
      body: '0000',
      headers: { 'content-type': 'application/x-git-receive-pack-request' },
    });
    expect(posted.status).toBe(403);
    const dir = target();
    await git('clone', '--quiet', url(), dir);
    await expect(runGitClient(['push', 'origin', `HEAD:refs/heads/${branch}`], dir)).rejects.toMatchObject({ stderr: expect.stringContaining('403') });
  });

  it('answers 405 for another method on a git route', async () => {
    const response = await getBytes(url('/info/refs?service=git-upload-pack'), { method: 'PUT' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('a private repository', () => {
  const upload = { 'content-type': 'application/x-git-upload-pack-request', 'git-protocol': 'version=2' };
  const cases: [string, string, RequestInit][] = [
    ['info/refs', '/info/refs?service=git-upload-pack', {}],
    ['info/refs (HEAD)', '/info/refs?service=git-upload-pack', { method: 'HEAD' }],
    ['info/refs for a push', '/info/refs?service=git-receive-pack', {}],
    ['git-upload-pack', '/git-upload-pack', { method: 'POST', body: LS_REFS_V2, headers: upload }],
    ['git-receive-pack', '/git-receive-pack', { method: 'POST', body: '0000', headers: { 'content-type': 'application/x-git-receive-pack-request' } }],
  ];

  it.each(cases)('answers %s exactly like an absent repository', async (_case, path, init) => {
    const hidden = await getBytes(url(path, 'hidden'), init);
    const absent = await getBytes(`${server.baseUrl}/${ABSENT_RID}.git${path}`, init);
    expect(hidden.status).toBe(404);
    expect(hidden.bytes.equals(absent.bytes)).toBe(true);
    const headers = (response: typeof hidden) => [...response.headers].filter(([name]) => name !== 'date');
    expect(headers(hidden)).toEqual(headers(absent));
  });

  it('cannot be cloned', async () => {
    await expect(git('clone', '--quiet', url('', 'hidden'), target())).rejects.toMatchObject({ stderr: expect.stringContaining('not found') });
  });
});
