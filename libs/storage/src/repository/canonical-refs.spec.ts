import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serializeTag } from '../git/format/serialize-tag.js';
import { updateRefs } from '../git/write/update-refs.js';
import { writeObject } from '../git/write/write-object.js';
import { createTestRepository, projectPayload, testKeyPair, writeTestCommit, writeTestHome } from '../home/node-home-fixture.testing.js';
import { type NodeHome, openNodeHome } from '../home/open-node-home.js';
import { compileRefGlob } from './ref-glob.js';
import { StorageRuntime } from '../git/storage-runtime.js';

const runtime = new StorageRuntime();

const ALICE = testKeyPair(1);
const T = 1_700_000_000;
const TAGGER = { name: 'Alice', email: 'alice@example.com', time: T + 5, offset: '+0200' };

describe('canonical refs', () => {
  let dir: string;
  let home: string;
  let nodeHome: NodeHome;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'forge-'));
    home = path.join(dir, 'home');
    await writeTestHome({ home, keyPair: ALICE });
    nodeHome = await openNodeHome({ runtime, home, flavour: 'forge' });
  });
  afterAll(async () => {
    await nodeHome.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function repositoryWith(payload: Record<string, unknown>) {
    const repo = await createTestRepository({ home, doc: { payload, delegates: [ALICE] }, time: T });
    const gitDir = repo.gitDir;
    const c1 = await writeTestCommit({ gitDir, files: { a: '1' }, time: T });
    const c2 = await writeTestCommit({ gitDir, files: { a: '2' }, parents: [c1], time: T + 1 });
    const tag = await writeObject(gitDir, 'tag', serializeTag({ object: c1, type: 'commit', tag: 'v1', tagger: TAGGER, message: 'Release 1\n\nNotes.\n' }));
    const unrelated = await writeTestCommit({ gitDir, files: { b: 'x' }, time: T });
    const treeOid = await writeObject(gitDir, 'tree', Buffer.alloc(0));
    await updateRefs(gitDir, [
      { name: 'refs/heads/main', oid: c2 },
      { name: 'refs/heads/release/1.0', oid: c1 },
      { name: 'refs/heads/other', oid: c1 },
      { name: 'refs/tags/v1', oid: tag },
      { name: 'refs/tags/nested/v2', oid: c2 },
      { name: 'refs/tags/tree-only', oid: treeOid },
      { name: 'refs/tags/unused', oid: unrelated },
      { name: `refs/namespaces/${ALICE.nid}/refs/tags/v9`, oid: c2 },
    ]);
    const repository = await nodeHome.storage.openRepository(repo.rid);
    if (repository === null) throw new Error('repository missing');
    return { repository, c1, c2, unrelated };
  }

  it('lists refs matching the crefs rules, tags with annotated details, refs peeled', async () => {
    const crefs = {
      rules: {
        'refs/tags/*': { allow: 'delegates', threshold: 1 },
        'refs/heads/release/*': { allow: 'delegates', threshold: 1 },
      },
    };
    const { repository, c1, c2, unrelated } = await repositoryWith({
      ...projectPayload('forge', { name: 'crefs' }),
      'xyz.forge.crefs': crefs,
    });
    const refs = await repository.canonicalRefs();
    expect(refs.tags).toEqual({
      'refs/tags/nested/v2': { commit: c2 },
      'refs/tags/unused': { commit: unrelated },
      'refs/tags/v1': {
        commit: c1,
        tagger: { name: 'Alice', email: 'alice@example.com', timestamp: T + 5 },
        message: 'Release 1\n\nNotes.\n',
      },
    });
    expect(Object.keys(refs.tags)).toEqual(['refs/tags/nested/v2', 'refs/tags/unused', 'refs/tags/v1']);
    expect(refs.refs).toEqual({ 'refs/heads/main': c2, 'refs/heads/release/1.0': c1 });
  });

  it('shows only the default branch without a crefs payload of this flavour', async () => {
    const { repository, c2 } = await repositoryWith({
      ...projectPayload('forge', { name: 'plain' }),
      'xyz.radicle.crefs': { rules: { 'refs/tags/*': { allow: 'delegates', threshold: 1 } } },
    });
    expect(await repository.canonicalRefs()).toEqual({ tags: {}, refs: { 'refs/heads/main': c2 } });
  });

  it('shows nothing when the crefs payload is malformed', async () => {
    const { repository } = await repositoryWith({
      ...projectPayload('forge', { name: 'bad-crefs' }),
      'xyz.forge.crefs': { rules: { 'refs/rad/*': {} } },
    });
    expect(await repository.canonicalRefs()).toEqual({ tags: {}, refs: {} });
  });

  it.each([
    ['refs/tags/*', 'refs/tags/a/b', true],
    ['refs/heads/*/stable', 'refs/heads/x/y/stable', true],
    ['refs/heads/main', 'refs/heads/main2', false],
    ['refs/heads/v?', 'refs/heads/v1', true],
    ['refs/heads/a.b', 'refs/heads/aXb', false],
  ])('matches pattern %s against %s: %s', (pattern, name, expected) => {
    expect(compileRefGlob(pattern).test(name)).toBe(expected);
  });
});
