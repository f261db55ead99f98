import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type BuiltHome, repositoryByName } from '@forge-httpd/builder';
import type { Rid } from '@forge-httpd/identity';
import type { ScratchCommit } from '@forge-httpd/builder/scratch';
import {
  ABSENT_RID,
  getBytes,
  getJson,
  makeTempDir,
  removeTempDir,
  runGitClient,
  type ScratchServer,
  startScratchServer,
  type TestServer,
} from './support/index.js';
import { eventually } from './support/faults.js';

const run = promisify(execFile);
const T = 1_700_000_000;
const COMMITS: ScratchCommit[] = Array.from({ length: 3 }, (_, index) => ({
  message: `Commit ${index}\n`,
  time: T + index * 100,
  changes: [{ path: 'README.md', content: `# Aliased\n\nversion ${index}\n` }],
}));

let scratch: ScratchServer;
let built: BuiltHome;
let server: TestServer;
let work: string;

const rid = (name: string): Rid => repositoryByName(built, name).rid;
const gitDir = (name: string): string => repositoryByName(built, name).gitDir;
const configPath = (): string => join(built.home, 'config.json');

async function setFileAliases(aliases: Record<string, string>): Promise<void> {
  const config = JSON.parse(await readFile(configPath(), 'utf8')) as { web: Record<string, unknown> };
  config.web['aliases'] = aliases;
  await writeFile(configPath(), `${JSON.stringify(config, null, 2)}\n`);
}

beforeAll(async () => {
  scratch = await startScratchServer({
    name: 'clone',
    seed: 'a1'.repeat(32),
    time: T,
    commits: COMMITS,
    prepare: async (home) => {
      built = home;
      // An annotated tag at the top level, for the dumb ref list's peeled line.
      await run('git', [`--git-dir=${gitDir('clone')}`, '-c', 'user.name=t', '-c', 'user.email=t@e', 'tag', '-a', '-m', 'one', 'v1', 'HEAD']);
      // The file maps `fromfile` and (overridden by the flag) `clone` to the private repository.
      await setFileAliases({ fromfile: rid('clone'), clone: rid('hidden') });
    },
    aliasesOf: (home) =>
      new Map([
        ['clone', repositoryByName(home, 'clone').rid],
        ['secret', repositoryByName(home, 'hidden').rid],
        ['gone', ABSENT_RID],
      ]),
  });
  server = scratch.server;
  work = await makeTempDir();
}, 60_000);

afterAll(async () => {
  await removeTempDir(work);
  await scratch?.close();
});

/** Status, body and headers (without date) of a GET. */
async function answer(url: string): Promise<{ status: number; body: string; headers: [string, string][] }> {
  const response = await getBytes(url);
  return { status: response.status, body: response.bytes.toString('latin1'), headers: [...response.headers].filter(([name]) => name !== 'date') };
}

/** `git http-backend`'s answer to a dumb `GET info/refs`, body only. */
async function httpBackendRefs(dir: string, namespace?: string): Promise<string> {
  const env = {
    PATH: process.env['PATH'] ?? '',
    GIT_PROJECT_ROOT: dir,
    PATH_INFO: '/info/refs',
    REQUEST_METHOD: 'GET',
    GIT_HTTP_EXPORT_ALL: '1',
    QUERY_STRING: '',
  };
  const { stdout } = await run('git', ['http-backend'], { env: namespace === undefined ? env : { ...env, GIT_NAMESPACE: namespace }, encoding: 'latin1' });
  return stdout.slice(stdout.indexOf('\r\n\r\n') + 4);
}

describe('GET /{rid}.git/info/refs without a service (the dumb protocol)', () => {
  it('lists the top-level refs as git http-backend does, peeled tags included, peers left out', async () => {
    const response = await getBytes(`${server.baseUrl}/${rid('clone')}.git/info/refs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain');
    expect(response.headers.get('cache-control')).toBe('no-cache, max-age=0, must-revalidate');
    const body = response.bytes.toString('latin1');
    const backend = (await httpBackendRefs(gitDir('clone'))).split('\n').filter((line) => !line.includes('\trefs/namespaces/'));
    expect(body.split('\n')).toEqual(backend);
    expect(body).toMatch(/^[0-9a-f]{40}\trefs\/tags\/v1\^\{\}$/m);
  });

  it("lists a peer's namespace as git http-backend does with GIT_NAMESPACE", async () => {
    const response = await getBytes(`${server.baseUrl}/${rid('clone')}.git/${built.nid}/info/refs`);
    expect(response.status).toBe(200);
    const body = response.bytes.toString('latin1');
    expect(body).toBe(await httpBackendRefs(gitDir('clone'), built.nid));
    expect(body).toContain(`\trefs/heads/${repositoryByName(built, 'clone').defaultBranch}\n`);
  });

  it('answers a private repository exactly like an absent one', async () => {
    expect(await answer(`${server.baseUrl}/${rid('hidden')}.git/info/refs`)).toEqual(await answer(`${server.baseUrl}/${ABSENT_RID}.git/info/refs`));
  });
});

describe('repository aliases', () => {
  it('shows the alias on the repository info and in listings', async () => {
    const info = (await getJson(`${server.baseUrl}/api/v1/repos/${rid('clone')}`)).body as Record<string, unknown>;
    // `clone` and `fromfile` both name it; the first in byte order is shown, last in the object.
    expect(info['alias']).toBe('clone');
    expect(Object.keys(info).at(-1)).toBe('alias');
    const listed = (await getJson(`${server.baseUrl}/api/v1/repos?show=all`)).body as Array<Record<string, unknown>>;
    expect(listed.find((item) => item['rid'] === rid('clone'))?.['alias']).toBe('clone');
  });

  it('answers every /api/v1/repos/{rid} route the same through the alias', async () => {
    const head = repositoryByName(built, 'clone').head;
    for (const path of ['', '/commits', `/tree/${head}/`, `/blob/${head}/README.md`, '/remotes']) {
      const byAlias = await getJson(`${server.baseUrl}/api/v1/repos/clone${path}`);
      const byRid = await getJson(`${server.baseUrl}/api/v1/repos/${rid('clone')}${path}`);
      expect(byAlias.status).toBe(200);
      expect(byAlias.body).toEqual(byRid.body);
    }
    // The file's alias works too; the flag's `clone` won over the file's.
    expect(((await getJson(`${server.baseUrl}/api/v1/repos/fromfile`)).body as { rid: string }).rid).toBe(rid('clone'));
  });

  it('serves raw files and git through the alias', async () => {
    const raw = await getBytes(`${server.baseUrl}/raw/clone/head/README.md`);
    expect(raw.status).toBe(200);
    expect(raw.bytes.toString()).toBe('# Aliased\n\nversion 2\n');
    const dir = join(work, 'by-alias');
    await runGitClient(['clone', '--quiet', `${server.baseUrl}/clone.git`, dir], work);
    expect((await runGitClient(['rev-parse', 'HEAD'], dir)).stdout.trim()).toBe(repositoryByName(built, 'clone').head);
    expect((await getBytes(`${server.baseUrl}/clone.git/info/refs`)).bytes.toString()).toBe(
      (await getBytes(`${server.baseUrl}/${rid('clone')}.git/info/refs`)).bytes.toString(),
    );
  });

  it.each([
    ['a private repository', 'secret'],
    ['an absent repository', 'gone'],
  ])('answers an alias of %s exactly like an absent repository', async (_what, name) => {
    const paths = (id: string): string[] => [
      `/api/v1/repos/${id}`,
      `/api/v1/repos/${id}/commits`,
      `/raw/${id}/head/README.md`,
      `/${id}.git/info/refs?service=git-upload-pack`,
      `/${id}.git/info/refs`,
    ];
    const absent = paths(ABSENT_RID);
    for (const [index, path] of paths(name).entries()) {
      const got = await answer(`${server.baseUrl}${path}`);
      expect(got.status).toBe(404);
      expect(got).toEqual(await answer(`${server.baseUrl}${absent[index] ?? ''}`));
    }
  });

  it('treats an unknown name as a malformed RID, and follows config.json when it changes', async () => {
    expect((await getJson(`${server.baseUrl}/api/v1/repos/later`)).status).toBe(400);
    expect((await getBytes(`${server.baseUrl}/later.git/info/refs`)).status).toBe(404);
    await setFileAliases({ fromfile: rid('clone'), later: rid('clone') });
    await eventually(async () => (await getJson(`${server.baseUrl}/api/v1/repos/later/commits`)).status === 200);
  });
});
