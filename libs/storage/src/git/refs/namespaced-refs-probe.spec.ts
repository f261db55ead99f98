import { mkdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { dateEnv, git, makeTempDir, removeTempDir } from '../write/git-cli.testing.js';
import { fileIncludesAny, NamespacedRefsProbe } from './namespaced-refs-probe.js';

// The probe decides whether background work asks git for a repository's COB refs at all: it
// may answer true when there are none (git then lists nothing), never false when there are some.
// Repository info asks it on every request, so packed-refs is read once per version.

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
  const probe = new NamespacedRefsProbe();
  const mayHaveNamespacedRefs = (gitDir: string, unders: readonly string[]): boolean => probe.mayHaveNamespacedRefs(gitDir, unders);
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

  it('reads packed-refs once per version of the file (inode, size, time), as git replaces it', () => {
    git(gitDir, ['update-ref', COB_REF, commit]);
    git(gitDir, ['pack-refs', '--all', '--prune']);
    rmSync(path.join(gitDir, 'refs/namespaces/z6MkPeer/refs/cobs'), { recursive: true, force: true });
    const file = path.join(gitDir, 'packed-refs');
    // A whole second, so the time can be put back exactly.
    utimesSync(file, 1_700_000_000, 1_700_000_000);
    expect(mayHaveNamespacedRefs(gitDir, ['refs/cobs/'])).toBe(true);
    // Rewritten in place to the same length with its old time (git never does this): the file
    // is not read again, so the earlier answer stands.
    writeFileSync(file, readFileSync(file, 'latin1').replaceAll('/refs/cobs/', '/refs/xxxx/'), 'latin1');
    utimesSync(file, 1_700_000_000, 1_700_000_000);
    expect(mayHaveNamespacedRefs(gitDir, ['refs/cobs/'])).toBe(true);
    // git's own rewrite (a new file renamed over it) is read at once.
    git(gitDir, ['update-ref', 'refs/heads/other', commit]);
    git(gitDir, ['pack-refs', '--all', '--prune']);
    expect(mayHaveNamespacedRefs(gitDir, ['refs/cobs/'])).toBe(false);
    git(gitDir, ['update-ref', '-d', COB_REF.replace('/refs/cobs/', '/refs/xxxx/')]);
  });

  it('answers true when a path cannot be read, false past a file, and refuses a sub-path that leaves the namespace', () => {
    const other = path.join(gitDir, 'refs/namespaces/z6MkOther');
    mkdirSync(other, { recursive: true });
    // A link to itself: stat fails with ELOOP, so nobody can tell what is there.
    symlinkSync('refs', path.join(other, 'refs'));
    expect(mayHaveNamespacedRefs(gitDir, ['refs/cobs/'])).toBe(true);
    rmSync(path.join(other, 'refs'));
    // A file where the namespace's refs folder belongs: no ref can be below it.
    writeFileSync(path.join(other, 'refs'), 'not a directory');
    expect(mayHaveNamespacedRefs(gitDir, ['refs/cobs/'])).toBe(false);
    rmSync(other, { recursive: true });
    expect(() => mayHaveNamespacedRefs(gitDir, ['../cobs/'])).toThrow('not a ref sub-path');
    expect(() => mayHaveNamespacedRefs(gitDir, ['refs/cobs'])).toThrow('not a ref sub-path');
  });
});

describe('fileIncludesAny', () => {
  it('finds a needle wherever the chunks cut it, and says when the file is absent', () => {
    const file = path.join(dir, 'scan.txt');
    const needle = '/refs/cobs/';
    const filler = 'x'.repeat(300);
    for (const at of [0, 1, 9, 10, 11, 31, 32, 33, 150, 289]) {
      writeFileSync(file, `${filler.slice(0, at)}${needle}${filler.slice(at)}`, 'latin1');
      for (const chunk of [16, 32, 33, 4096]) expect(fileIncludesAny(file, ['/refs/none/', needle], chunk)).toBe(true);
    }
    writeFileSync(file, `${filler}/refs/cobs${filler}`, 'latin1');
    expect(fileIncludesAny(file, [needle], 16)).toBe(false);
    writeFileSync(file, '', 'latin1');
    expect(fileIncludesAny(file, [needle], 16)).toBe(false);
    expect(fileIncludesAny(path.join(dir, 'absent.txt'), [needle])).toBe(false);
    expect(fileIncludesAny(dir, [needle])).toBeUndefined();
  });
});
