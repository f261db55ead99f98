import { join } from 'node:path';
import type { Remote } from '@forge-httpd/api-types';
import { nidFromPublicKey } from '@forge-httpd/identity';
import { updateRefs } from '@forge-httpd/storage/write';
import { type BuiltHome, buildNodeHome, createTags, namespacedRef, peerByAlias, repositoryByName, resignRefs } from '@forge-httpd/builder';
import { execGit } from '@forge-httpd/builder/scratch';
import { ABSENT_RID, expectGolden, getJson, makeTempDir, removeTempDir, startTestServer, type TestServer } from './support/index.js';

const T = 1_700_000_000;
const NOT_FOUND = '{"error":"Not Found","code":404}';
const author = { name: 'bob', email: 'bob@example.org', time: T + 5_000, offset: '+0000' };

let dir: string;
let built: BuiltHome;
let server: TestServer;

beforeAll(async () => {
  dir = await makeTempDir();
  built = await buildNodeHome({
    home: join(dir, 'home'),
    seed: 'e1'.repeat(32),
    alias: 'seed',
    time: T,
    peers: [{ alias: 'bob' }, { alias: 'dave', known: false }],
    repos: [
      {
        name: 'shared',
        forks: [
          { peer: 'bob', branches: [{ name: 'main' }, { name: 'feature/x', commits: [{ message: 'Feature\n', changes: { 'f.txt': 'f\n' }, author }] }] },
          { peer: 'dave' },
        ],
      },
      { name: 'hidden', private: true },
    ],
  });
  const repo = repositoryByName(built, 'shared');
  const bob = peerByAlias(built.context, 'bob');
  // Refs the remote view must drop: outside heads/tags, and a tag that is not a commit.
  const treeOid = (await execGit({ gitDir: repo.gitDir, args: ['rev-parse', `${repo.head}^{tree}`] })).toString().trim();
  await updateRefs(repo.gitDir, [
    { name: namespacedRef(bob.keyPair.nid, 'refs/notes/commits'), oid: repo.head },
    { name: namespacedRef(bob.keyPair.nid, 'refs/tags/tree-tag'), oid: treeOid as typeof repo.head },
  ]);
  await resignRefs(built.context, repo, bob);
  await createTags(built.context, repo, {
    peer: bob,
    tags: [
      { name: 'v1.0', target: repo.head, message: 'Release' },
      { name: 'light', target: repo.head },
    ],
  });
  server = await startTestServer({ home: built.home });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await removeTempDir(dir);
});

const base = (name = 'shared') => `${server.baseUrl}/api/v1/repos/${repositoryByName(built, name).rid}`;
const nid = (alias: string) => peerByAlias(built.context, alias).keyPair.nid;

describe('GET /repos/{rid}/remotes', () => {
  it('lists every peer with signed refs by NID: heads, peeled branch and tag refs, alias and delegate flag', async () => {
    const response = await getJson(`${base()}/remotes`);
    expect(response.headers.get('cache-control')).toBeNull();
    const remotes = response.body as Remote[];
    expect(remotes.map((remote) => remote.id)).toEqual([nid('seed'), nid('bob'), nid('dave')].sort());
    expectGolden('browse-remotes', remotes);
  });

  it('drops refs outside refs/heads and refs/tags and refs that do not peel to a commit', async () => {
    const bob = (await getJson(`${base()}/remotes/${nid('bob')}`)).body as Remote;
    expect(Object.keys(bob.refs)).toEqual(['refs/heads/feature/x', 'refs/heads/main', 'refs/tags/light', 'refs/tags/v1.0']);
    expect(bob.refs['refs/tags/v1.0']).toBe(repositoryByName(built, 'shared').head);
    expect(Object.keys(bob.heads)).toEqual(['feature/x', 'main']);
  });

  it('omits the alias of an unknown node and marks delegates', async () => {
    const dave = (await getJson(`${base()}/remotes/${nid('dave')}`)).body as Remote;
    expect('alias' in dave).toBe(false);
    expect(dave.delegate).toBe(false);
    expect(((await getJson(`${base()}/remotes/${nid('seed')}`)).body as Remote).delegate).toBe(true);
  });
});

describe('GET /repos/{rid}/remotes/{peer}', () => {
  it('answers 404 for a peer without signed refs in the repository', async () => {
    const stranger = nidFromPublicKey(new Uint8Array(32).fill(7));
    expect((await getJson(`${base()}/remotes/${stranger}`)).text).toBe(NOT_FOUND);
  });

  it('answers 400 for a malformed peer id', async () => {
    const response = await getJson(`${base()}/remotes/z6Mnope`);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'Invalid peer: expected z6Mk… (a node id)', code: 400 });
  });

  it.each(['/remotes', '/remotes/PEER'])('answers %s of a private or absent repository with 404', async (path) => {
    const suffix = path.replace('PEER', nid('seed'));
    expect((await getJson(`${base('hidden')}${suffix}`)).text).toBe(NOT_FOUND);
    expect((await getJson(`${server.baseUrl}/api/v1/repos/${ABSENT_RID}${suffix}`)).text).toBe(NOT_FOUND);
  });
});

describe('remotes after a peer signs its refs again', () => {
  it('show the refs of the new signed refs at once, in the list and alone (peeled refs are kept per signed refs)', async () => {
    const repo = repositoryByName(built, 'shared');
    const bob = peerByAlias(built.context, 'bob');
    const listed = async (): Promise<Remote | undefined> => ((await getJson(`${base()}/remotes`)).body as Remote[]).find((remote) => remote.id === nid('bob'));
    expect(Object.keys((await listed())?.heads ?? {})).toEqual(['feature/x', 'main']);
    await updateRefs(repo.gitDir, [
      { name: namespacedRef(bob.keyPair.nid, 'refs/heads/later'), oid: repo.head },
      { name: namespacedRef(bob.keyPair.nid, 'refs/tags/v2.0'), oid: repo.head },
    ]);
    await resignRefs(built.context, repo, bob);
    expect(Object.keys((await listed())?.heads ?? {})).toEqual(['feature/x', 'later', 'main']);
    const alone = (await getJson(`${base()}/remotes/${nid('bob')}`)).body as Remote;
    expect(Object.keys(alone.refs)).toEqual([
      'refs/heads/feature/x',
      'refs/heads/later',
      'refs/heads/main',
      'refs/tags/light',
      'refs/tags/v1.0',
      'refs/tags/v2.0',
    ]);
    expect(await listed()).toEqual(alone);
  });
});
