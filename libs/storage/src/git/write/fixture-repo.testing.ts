/**
 * Test helper (not a test: *.test.ts is neither run by jest nor built): writes a small but
 * varied repository with the writer of this folder plus the git CLI.
 */
import path from 'node:path';
import { git, makeTempDir, removeTempDir } from './git-cli.testing.js';
import { initBareRepository } from './init-bare-repository.js';
import type { GitHeader } from '../objects/object-headers.js';
import type { Oid } from '../objects/oid.js';
import { repackRepository } from './repack-repository.js';
import { serializeCommit } from '../format/serialize-commit.js';
import { serializeTag } from '../format/serialize-tag.js';
import { serializeTree } from '../format/serialize-tree.js';
import type { GitSignature } from '../format/signature.js';
import { updateRefs } from './update-refs.js';
import { writeObject } from './write-object.js';

/** Size of the large blob: above the API's 4 MiB blob limit. */
export const BIG_SIZE = 5 * 1024 * 1024 + 3;
export const NAMESPACE = 'z6MkTestNamespace';
export const SIGNATURE = '-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n-----END SSH SIGNATURE-----';

/** Ids of the fixture's objects. */
export interface Fixture {
  readonly gitDir: string;
  readonly blobs: { readme: Oid; readme2: Oid; a: Oid; big: Oid; link: Oid };
  readonly trees: { root1: Oid; root2: Oid; dir: Oid };
  /** c1 ← c2 (non-UTF-8 message), c1 ← c3 (gpgsig), m = merge(c2, c3), c5 (older time) ← m. */
  readonly commits: { c1: Oid; c2: Oid; c3: Oid; m: Oid; c5: Oid; cli: Oid };
  readonly tag: Oid;
  readonly submodule: Oid;
}

function person(name: string, time: number): GitSignature {
  return { name, email: `${name.toLowerCase()}@example.com`, time, offset: '+0000' };
}

type Write = (type: 'blob' | 'tree' | 'commit' | 'tag', bytes: Uint8Array) => Promise<Oid>;

async function writeBlobs(w: Write): Promise<Fixture['blobs']> {
  const big = Buffer.alloc(BIG_SIZE);
  for (let i = 0; i < big.length; i += 1) big[i] = (i * 7919) % 251;
  return {
    readme: await w('blob', Buffer.from('hello\n')),
    readme2: await w('blob', Buffer.from('hello\nworld\n')),
    a: await w('blob', Buffer.from('a\n')),
    big: await w('blob', big),
    link: await w('blob', Buffer.from('README')),
  };
}

async function writeTrees(w: Write, blobs: Fixture['blobs'], submodule: Oid): Promise<Fixture['trees']> {
  const dir = await w('tree', serializeTree([{ name: 'a.txt', mode: '100644', oid: blobs.a }]));
  const root = (readme: Oid) =>
    serializeTree([
      { name: 'README', mode: '100644', oid: readme },
      { name: 'dir', mode: '40000', oid: dir },
      { name: 'link', mode: '120000', oid: blobs.link },
      { name: 'big.bin', mode: '100644', oid: blobs.big },
      { name: 'module', mode: '160000', oid: submodule },
      { name: 'run.sh', mode: '100755', oid: blobs.a },
    ]);
  return { root1: await w('tree', root(blobs.readme)), root2: await w('tree', root(blobs.readme2)), dir };
}

async function writeCommits(w: Write, gitDir: string, trees: Fixture['trees']): Promise<Fixture['commits']> {
  const commit = (tree: Oid, parents: Oid[], time: number, message: string | Buffer, headers: GitHeader[] = []) =>
    w('commit', serializeCommit({ tree, parents, author: person('Alice', time), committer: person('Bob', time), headers, message }));
  const c1 = await commit(trees.root1, [], 1000, 'Initial commit');
  const c2 = await commit(trees.root2, [c1], 2000, Buffer.from('caf\xe9 latin-1\n', 'latin1'));
  const c3 = await commit(trees.root1, [c1], 3000, 'Signed\n\nBody line\n', [{ name: 'gpgsig', value: SIGNATURE }]);
  const m = await commit(trees.root2, [c2, c3], 4000, 'Merge side\n');
  const c5 = await commit(trees.root2, [m], 1500, 'Skewed clock\n');
  const cli = git(gitDir, ['commit-tree', trees.root1, '-p', c5, '-m', 'by git'], {
    env: { GIT_AUTHOR_DATE: '@5000 +0200', GIT_COMMITTER_DATE: '@5000 +0200' },
  }) as Oid;
  return { c1, c2, c3, m, c5, cli };
}

/**
 * Builds the fixture repository under `dir`.
 * @param packed - repack objects and refs afterwards
 */
export async function buildFixture(dir: string, packed: boolean): Promise<Fixture> {
  const gitDir = path.join(dir, packed ? 'packed.git' : 'loose.git');
  await initBareRepository(gitDir, { userName: 'alice', userEmail: 'alice@example.com' });
  const w: Write = (type, bytes) => writeObject(gitDir, type, bytes);
  const submodule = 'd'.repeat(40) as Oid;
  const blobs = await writeBlobs(w);
  const trees = await writeTrees(w, blobs, submodule);
  const commits = await writeCommits(w, gitDir, trees);
  const tag = await w('tag', serializeTag({ object: commits.c2, type: 'commit', tag: 'v1', tagger: person('Alice', 2500), message: 'Version 1\n' }));
  await updateRefs(gitDir, [
    { name: 'refs/heads/master', oid: commits.c5 },
    { name: 'refs/heads/side', oid: commits.c3 },
    { name: 'refs/heads/cli', oid: commits.cli },
    { name: 'refs/tags/v1', oid: tag },
    { name: 'refs/tags/light', oid: commits.c1 },
    { name: `refs/namespaces/${NAMESPACE}/refs/heads/master`, oid: commits.c2 },
    { name: `refs/namespaces/${NAMESPACE}/refs/rad/id`, symbolicTarget: 'refs/heads/side' },
    { name: 'HEAD', symbolicTarget: 'refs/heads/master' },
  ]);
  if (packed) await repackRepository(gitDir);
  return { gitDir, blobs, trees, commits, tag, submodule };
}

/** A loose fixture repository built in a temp folder for one spec file. */
export interface LooseFixture {
  /** The temp folder (the repository is inside; a spec may add more). */
  readonly dir: string;
  readonly fixture: Fixture;
}

/**
 * Builds a loose fixture before the spec file's tests and removes it after them.
 * @returns a holder whose fields are set once `beforeAll` has run
 */
export function looseFixtureForSpec(): LooseFixture {
  const holder = {} as { dir: string; fixture: Fixture };
  beforeAll(async () => {
    holder.dir = await makeTempDir();
    holder.fixture = await buildFixture(holder.dir, false);
  });
  afterAll(() => removeTempDir(holder.dir));
  return holder;
}
