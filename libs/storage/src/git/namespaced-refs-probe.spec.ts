import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { dateEnv, git, makeTempDir, removeTempDir } from './git-cli.testing.js';
import { mayHaveNamespacedRefs } from './namespaced-refs-probe.js';

// The probe decides whether background work asks git for a repository's COB refs at all: it
// may answer true when there are none (git then lists nothing), never false when there are some.

let dir: string;
let gitDir: string;
let commit: string;

beforeAll(async () => {
  dir = await makeTempDir();
  gitDir = path.join(dir, 'repo.git');
  git(dir, ['init', '--bare', '--quiet', gitDir]);
  commit = git(gitDir, ['commit-tree', '4b825dc642cb6eb9a060e54bf8d69288fbee4904', '-m', 'root'], { env: dateEnv(1_700_000_000) });
});

afterAll(() => removeTempDir(dir));

const COB_REF = 'refs/namespaces/z6MkPeer/refs/cobs/xyz.forge.issue/0123456789abcdef0123456789abcdef01234567';

describe('mayHaveNamespacedRefs', () => {
  it('answers false for a repository without namespaces, or whose namespaces hold no such refs', () => {
    expect(mayHaveNamespacedRefs(gitDir, ['refs/cobs/'])).toBe(false);
    git(gitDir, ['update-ref', 'refs/namespaces/z6MkPeer/refs/heads/main', commit]);
    git(gitDir, ['update-ref', 'refs/heads/main', commit]);
    expect(mayHaveNamespacedRefs(gitDir, ['refs/cobs/'])).toBe(false);
    expect(mayHaveNamespacedRefs(gitDir, ['refs/heads/'])).toBe(true);
  });

  it('finds a loose ref, then the same ref once git packed it', () => {
    git(gitDir, ['update-ref', COB_REF, commit]);
    expect(mayHaveNamespacedRefs(gitDir, ['refs/cobs/'])).toBe(true);
    git(gitDir, ['pack-refs', '--all', '--prune']);
    expect(git(gitDir, ['for-each-ref', '--format=%(refname)', 'refs/namespaces/'])).toContain(COB_REF);
    // Pruning leaves the emptied directories behind: remove them to see the packed file alone.
    rmSync(path.join(gitDir, 'refs/namespaces/z6MkPeer/refs/cobs'), { recursive: true, force: true });
    expect(mayHaveNamespacedRefs(gitDir, ['refs/cobs/'])).toBe(true);
    git(gitDir, ['update-ref', '-d', COB_REF]);
    expect(mayHaveNamespacedRefs(gitDir, ['refs/cobs/'])).toBe(false);
  });

  it('answers true when a file cannot be read, and refuses a sub-path that leaves the namespace', () => {
    mkdirSync(path.join(gitDir, 'refs/namespaces/z6MkOther'), { recursive: true });
    writeFileSync(path.join(gitDir, 'refs/namespaces/z6MkOther/refs'), 'not a directory');
    expect(mayHaveNamespacedRefs(gitDir, ['refs/cobs/'])).toBe(true);
    rmSync(path.join(gitDir, 'refs/namespaces/z6MkOther'), { recursive: true });
    expect(() => mayHaveNamespacedRefs(gitDir, ['../cobs/'])).toThrow('not a ref sub-path');
    expect(() => mayHaveNamespacedRefs(gitDir, ['refs/cobs'])).toThrow('not a ref sub-path');
  });
});
