import { existsSync } from 'node:fs';
import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildFixture, type Fixture } from './write/fixture-repo.testing.js';
import { git, makeTempDir, removeTempDir } from './write/git-cli.testing.js';
import type { GitRepository } from './git-repository.js';
import { initBareRepository } from './write/init-bare-repository.js';
import { openGitRepository } from './open-git-repository.js';
import type { Oid } from './objects/oid.js';
import { StorageRuntime } from './storage-runtime.js';

const runtime = new StorageRuntime();

let tmp: string;
let fixture: Fixture;
let repo: GitRepository;
let decoyDir: string;
const INHERITED = ['GIT_OBJECT_DIRECTORY', 'GIT_NAMESPACE', 'GIT_DIR'];

beforeAll(async () => {
  tmp = await makeTempDir();
  fixture = await buildFixture(tmp, false);
  decoyDir = path.join(tmp, 'decoy.git');
  await initBareRepository(decoyDir);
  // Inherited GIT_* variables must not redirect reads to other objects or refs.
  process.env['GIT_OBJECT_DIRECTORY'] = path.join(decoyDir, 'objects');
  process.env['GIT_NAMESPACE'] = 'decoy';
  process.env['GIT_DIR'] = decoyDir;
  repo = openGitRepository(fixture.gitDir, { runtime });
});
afterAll(async () => {
  for (const name of INHERITED) delete process.env[name];
  await repo.close();
  await removeTempDir(tmp);
});

describe('object id validation', () => {
  it.each(['--output=x', 'HEAD', 'refs/heads/master', 'abc', 'A'.repeat(40), `${'a'.repeat(40)}\ninfo HEAD`, 'g'.repeat(40)])(
    'rejects %j as an object id before it reaches git',
    async (bad) => {
      await expect(repo.readObject(bad as Oid)).rejects.toMatchObject({ code: 'invalid-input' });
      await expect(repo.readCommit(bad as Oid)).rejects.toMatchObject({ code: 'invalid-input' });
      await expect(repo.findEntry(bad as Oid, 'README')).rejects.toMatchObject({ code: 'invalid-input' });
      await expect(repo.walkCommits({ from: bad as Oid })).rejects.toMatchObject({ code: 'invalid-input' });
      await expect(repo.diffPatch({ from: null, to: bad as Oid, maxBytes: 10 })).rejects.toMatchObject({ code: 'invalid-input' });
      await expect(repo.diffNumstat({ from: bad as Oid, to: fixture.commits.c1, maxBytes: 10 })).rejects.toMatchObject({ code: 'invalid-input' });
      await expect(repo.mergeBase(bad as Oid, fixture.commits.c1)).rejects.toMatchObject({ code: 'invalid-input' });
    },
  );
});

describe('ref name validation', () => {
  it.each([
    '--output=x',
    'master',
    'refs/heads/../../config',
    'refs/heads/a b',
    'refs/heads/x:y',
    'HEAD^',
    'refs/heads/master^{tree}',
    'refs/heads/master@{0}',
    ':/Initial',
    'refs/heads/master~1',
    'refs/heads/',
    'refs/heads/.hidden',
    'refs/heads/x.lock',
    'refs//heads',
    'refs/heads/a\nb',
    'refs/heads/*',
    '',
  ])('rejects the ref name %j', async (bad) => {
    await expect(repo.resolveRef(bad)).rejects.toMatchObject({ code: 'invalid-input' });
    await expect(repo.readSymbolicRef(bad)).rejects.toMatchObject({ code: 'invalid-input' });
  });

  it.each(['--output=x/', 'refs/heads', 'refs/*/', '../', 'refs/heads/../'])('rejects the ref prefix %j', async (bad) => {
    await expect(repo.listRefs(bad)).rejects.toMatchObject({ code: 'invalid-input' });
  });

  it('accepts unusual but valid branch names', async () => {
    expect(await repo.resolveRef('refs/heads/feature/ünïcode-@_+')).toBeNull();
  });
});

describe('tree paths', () => {
  it.each(['--output=x', '../config', '../../etc/passwd', 'dir/../../x', 'README:foo', 'HEAD:README'])(
    'never passes the path %j to git and finds nothing',
    async (bad) => {
      expect(await repo.findEntry(fixture.commits.c1, bad)).toBeNull();
      expect(existsSync(path.join(process.cwd(), '--output=x'))).toBe(false);
      expect(existsSync(path.join(process.cwd(), 'x'))).toBe(false);
    },
  );
});

describe('environment and repository configuration', () => {
  it('reads the opened repository even when inherited GIT_* variables point elsewhere', async () => {
    expect(await repo.resolveRef('refs/heads/master')).toBe(fixture.commits.c5);
    expect(await repo.countCommits(fixture.commits.c5)).toBe(5);
    expect(await repo.listRefs('refs/heads/')).toHaveLength(3);
    expect((await repo.readCommit(fixture.commits.c1))?.message).toBe('Initial commit');
  });

  it('does not run an external diff command configured in the repository', async () => {
    const marker = path.join(tmp, 'external-diff-ran');
    const script = path.join(tmp, 'evil.sh');
    await writeFile(script, `#!/bin/sh\ntouch ${marker}\n`);
    await chmod(script, 0o755);
    git(fixture.gitDir, ['config', 'diff.external', script]);
    try {
      const { patch } = await repo.diffPatch({ from: fixture.commits.c1, to: fixture.commits.c2, maxBytes: 1 << 20 });
      expect(patch.toString()).toContain('+world');
      expect(existsSync(marker)).toBe(false);
    } finally {
      git(fixture.gitDir, ['config', '--unset', 'diff.external']);
    }
  });
});
