import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { git, importLinearCommits, makeTempBareRepository, removeTempDir } from '../write/git-cli.testing.js';
import { openGitRepository } from '../open-git-repository.js';
import { StorageRuntime } from '../storage-runtime.js';

const runtime = new StorageRuntime();

// `listRefs` answers from the ref files when they tell exactly, else through git: either way
// it must list what `git for-each-ref` lists, in its order.
let tmp: string;
let gitDir: string;
let commits: string[];

beforeEach(async () => {
  ({ tmp, gitDir } = await makeTempBareRepository());
  commits = importLinearCommits(gitDir, { branch: 'refs/heads/main', commits: 6 });
});
afterEach(async () => {
  await removeTempDir(tmp);
});

/** What git lists under `prefix`: name and oid, in its order. */
function forEachRef(prefix: string): Array<{ name: string; oid: string }> {
  return git(gitDir, ['for-each-ref', '--format=%(objectname) %(refname)', prefix])
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => ({ oid: line.slice(0, 40), name: line.slice(41) }));
}

async function listed(prefix: string): Promise<Array<{ name: string; oid: string }>> {
  const repo = openGitRepository(gitDir, { runtime });
  try {
    return (await repo.listRefs(prefix)).map(({ name, oid }) => ({ name, oid }));
  } finally {
    await repo.close();
  }
}

/** COB-like refs in namespaces, some packed, some loose over packed ones, some loose only. */
function writeNamespacedRefs(): void {
  const updates: string[] = [];
  for (let peer = 0; peer < 5; peer += 1) {
    for (let object = 0; object < 40; object += 1) {
      const id = (object * 7919 + peer).toString(16).padStart(40, 'a');
      updates.push(`update refs/namespaces/z6Mk${peer}/refs/cobs/xyz.forge.issue/${id} ${commits[(object + peer) % commits.length]}`);
    }
    updates.push(`update refs/namespaces/z6Mk${peer}/refs/heads/main ${commits[peer]}`);
  }
  git(gitDir, ['update-ref', '--stdin'], { input: `${updates.join('\n')}\n` });
  git(gitDir, ['pack-refs', '--all']);
  git(gitDir, ['update-ref', 'refs/namespaces/z6Mk1/refs/heads/main', commits[5] as string]);
  git(gitDir, ['update-ref', 'refs/namespaces/z6Mk9/refs/heads/new', commits[2] as string]);
}

describe('listRefs', () => {
  it('lists packed refs, loose refs and loose refs over packed ones as git does, in its order', async () => {
    writeNamespacedRefs();
    for (const prefix of ['refs/namespaces/', 'refs/namespaces/z6Mk1/', 'refs/heads/', 'refs/tags/']) {
      expect(await listed(prefix)).toEqual(forEachRef(prefix));
    }
    expect((await listed('refs/namespaces/')).length).toBe(5 * 41 + 1);
  });

  it("lists each namespace's symbolic refs (refs/rad/id) with their targets' oids, as git does", async () => {
    writeNamespacedRefs();
    for (let peer = 0; peer < 5; peer += 1) {
      const id = (peer * 7919 + peer).toString(16).padStart(40, 'a');
      git(gitDir, ['symbolic-ref', `refs/namespaces/z6Mk${peer}/refs/rad/id`, `refs/namespaces/z6Mk${peer}/refs/cobs/xyz.forge.issue/${id}`]);
    }
    // One pointing outside the narrower prefix below, one at nothing.
    git(gitDir, ['symbolic-ref', 'refs/namespaces/z6Mk1/refs/heads/elsewhere', 'refs/heads/main']);
    git(gitDir, ['symbolic-ref', 'refs/namespaces/z6Mk2/refs/heads/dangling', 'refs/namespaces/z6Mk2/refs/heads/none']);
    for (const prefix of ['refs/namespaces/', 'refs/namespaces/z6Mk0/', 'refs/namespaces/z6Mk1/refs/heads/', 'refs/namespaces/z6Mk2/']) {
      expect(await listed(prefix)).toEqual(forEachRef(prefix));
    }
    expect((await listed('refs/namespaces/z6Mk0/')).map(({ name }) => name)).toContain('refs/namespaces/z6Mk0/refs/rad/id');
  });

  it('lists again as git does while loose refs change over the same packed refs', async () => {
    writeNamespacedRefs();
    const repo = openGitRepository(gitDir, { runtime });
    const again = async (prefix: string): Promise<Array<{ name: string; oid: string }>> =>
      (await repo.listRefs(prefix)).map(({ name, oid }) => ({ name, oid }));
    const packedIssue = (peer: number, object: number): string =>
      `refs/namespaces/z6Mk${peer}/refs/cobs/xyz.forge.issue/${(object * 7919 + peer).toString(16).padStart(40, 'a')}`;
    try {
      const changes: string[][] = [
        // A loose ref over a packed one, one between packed names, one after them all.
        ['update-ref', packedIssue(2, 7), commits[0] as string],
        ['update-ref', 'refs/namespaces/z6Mk2/refs/cobs/xyz.forge.issue/b'.padEnd(78, '0'), commits[3] as string],
        ['update-ref', 'refs/namespaces/z6Mk8/refs/heads/late', commits[4] as string],
        // A symbolic ref over a packed name, then the loose refs removed again.
        ['symbolic-ref', packedIssue(3, 9), 'refs/namespaces/z6Mk3/refs/heads/main'],
        ['update-ref', '-d', 'refs/namespaces/z6Mk8/refs/heads/late'],
        ['update-ref', '-d', packedIssue(2, 7)],
        // The packed refs rewritten: a new version of the file.
        ['pack-refs', '--all'],
        ['update-ref', packedIssue(4, 1), commits[5] as string],
      ];
      for (const change of changes) {
        git(gitDir, change);
        for (const prefix of ['refs/namespaces/', 'refs/namespaces/z6Mk2/']) expect(await again(prefix)).toEqual(forEachRef(prefix));
      }
    } finally {
      await repo.close();
    }
  });

  it('lists a ref whose object the repository does not hold, as git does', async () => {
    writeNamespacedRefs();
    const absent = 'f'.repeat(40);
    appendFileSync(path.join(gitDir, 'packed-refs'), `${absent} refs/namespaces/z6Mk2/refs/cobs/xyz.forge.issue/${'b'.repeat(40)}\n`);
    mkdirSync(path.join(gitDir, 'refs/namespaces/z6Mk3/refs/heads'), { recursive: true });
    writeFileSync(path.join(gitDir, 'refs/namespaces/z6Mk3/refs/heads/gone'), `${'e'.repeat(40)}\n`);
    const expected = forEachRef('refs/namespaces/');
    // git lists it: the format asks nothing of the object.
    expect(expected.some(({ oid }) => oid === absent)).toBe(true);
    expect(await listed('refs/namespaces/')).toEqual(expected);
  });

  it('lists symbolic refs, odd names and names past ASCII as git does', async () => {
    writeNamespacedRefs();
    git(gitDir, ['symbolic-ref', 'refs/namespaces/z6Mk4/refs/heads/alias', 'refs/namespaces/z6Mk4/refs/heads/main']);
    git(gitDir, ['update-ref', 'refs/namespaces/z6Mk4/refs/heads/grüße', commits[1] as string]);
    git(gitDir, ['update-ref', 'refs/namespaces/z6Mk4/refs/heads/Zeta', commits[1] as string]);
    for (const prefix of ['refs/namespaces/', 'refs/namespaces/z6Mk4/']) expect(await listed(prefix)).toEqual(forEachRef(prefix));
    git(gitDir, ['pack-refs', '--all']);
    // A packed name git refuses: git leaves it out, and so does the listing.
    appendFileSync(path.join(gitDir, 'packed-refs'), `${commits[0] as string} refs/namespaces/z6Mk4/refs/heads/bad..name\n`);
    expect(await listed('refs/namespaces/')).toEqual(forEachRef('refs/namespaces/'));
  });
});
