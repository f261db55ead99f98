import { execFileSync } from 'node:child_process';
import { openGitRepository, type DiffPatchOptions, type GitRepository, type Oid, type ReadOptions } from '@forge-httpd/storage';
import { join } from 'node:path';
import type { ServerConfig } from '../src/config/server-config.js';
import { GitContentCache } from '../src/git-content/git-content-cache.js';
import { GitContentService } from '../src/git-content/git-content.service.js';
import { makeTempDir, removeTempDir } from './support/temp-dir.js';
import { StorageRuntime } from '@forge-httpd/storage';

const runtime = new StorageRuntime();

// A diff's blobs are read while git still writes the patches (issue 14): git's raw records come
// first, and on a 450-file commit the blob reads (25-32 ms) followed a 40 ms diff.

let tmp: string | undefined;
beforeAll(async () => (tmp = await makeTempDir()));
afterAll(() => removeTempDir(tmp));

/** The service as the server builds it, its caches bounded by `memoryBudgetMiB` (0: none). */
function contentService(memoryBudgetMiB: number): GitContentService {
  return new GitContentService(new GitContentCache({ memoryBudgetMiB } as ServerConfig));
}

/** The real repository, with the order in which its patch came in and its blob reads started. */
function recorded(git: GitRepository, options: { early: boolean }): { git: GitRepository; events: string[] } {
  const events: string[] = [];
  const proxy = new Proxy(git, {
    get(target, property, receiver) {
      if (property === 'diffPatch') {
        return async (patchOptions: DiffPatchOptions) => {
          const { onBlobIds, ...rest } = patchOptions;
          const answer = await target.diffPatch(options.early ? { ...rest, onBlobIds } : rest);
          events.push('patch');
          return answer;
        };
      }
      if (property === 'readObjectInfo' || property === 'readBlob') {
        return (oid: Oid, readOptions?: ReadOptions) => {
          events.push(property === 'readBlob' ? 'blob' : 'info');
          return property === 'readBlob' ? target.readBlob(oid, readOptions) : target.readObjectInfo(oid, readOptions);
        };
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { git: proxy, events };
}

/** A bare repository with two commits: the second changes six files of the first. */
function twoCommits(gitDir: string): { from: Oid; to: Oid } {
  const env = { ...process.env, GIT_AUTHOR_NAME: 'A', GIT_AUTHOR_EMAIL: 'a@example.com', GIT_COMMITTER_NAME: 'A', GIT_COMMITTER_EMAIL: 'a@example.com' };
  const run = (args: string[], input?: string): string => execFileSync('git', ['--git-dir', gitDir, ...args], { env, input, encoding: 'utf8' }).trim();
  run(['init', '--bare', '--quiet']);
  const tree = (version: number): string =>
    run(
      ['mktree'],
      Array.from(
        { length: 6 },
        (_, file) => `100644 blob ${run(['hash-object', '-w', '--stdin'], `file ${file}, version ${version}\n`)}\tfile-${file}.txt\n`,
      ).join(''),
    );
  const from = run(['commit-tree', tree(1), '-m', 'one']) as Oid;
  const to = run(['commit-tree', tree(2), '-p', from, '-m', 'two']) as Oid;
  return { from, to };
}

describe('a diff page reads its blobs early', () => {
  it('starts the blob reads before the patch is in, and answers what a read after it answers', async () => {
    const gitDir = join(tmp as string, 'repo.git');
    const range = twoCommits(gitDir);
    // No blob cache: every page reads its blobs.
    const service = contentService(0);
    const repository = openGitRepository(gitDir, { runtime });
    try {
      // Twice each: the long-lived diff process answers the second (the first may be spawned git's).
      const early = recorded(repository, { early: true });
      const late = recorded(repository, { early: false });
      await service.loadDiff(late.git, range);
      const expected = await service.loadDiff(late.git, range);
      await service.loadDiff(early.git, range);
      early.events.length = 0;
      const answer = await service.loadDiff(early.git, range);
      expect(answer).toEqual(expected);
      expect(answer.blobs).toHaveLength(12);
      // Every blob's header was asked for before the patch was in, and each blob read once (on a
      // busy machine the reads may even be done before it: they need not wait for it).
      const patchAt = early.events.indexOf('patch');
      expect(early.events.filter((event) => event === 'info')).toHaveLength(answer.blobs.length);
      expect(early.events.lastIndexOf('info')).toBeLessThan(patchAt);
      expect(early.events.filter((event) => event === 'blob')).toHaveLength(answer.blobs.length);
      // Without the early ids, the reads follow the patch.
      expect(late.events.slice(-2 * answer.blobs.length - 1)[0]).toBe('patch');
    } finally {
      await repository.close();
    }
  });
});

describe('a diff page reuses the blobs pages before it prepared', () => {
  it('reads neither header nor content of a blob it has ready, and answers the same', async () => {
    const gitDir = join(tmp as string, 'reuse.git');
    const range = twoCommits(gitDir);
    const repository = openGitRepository(gitDir, { runtime });
    try {
      const expected = await contentService(0).loadDiff(repository, range);
      const service = contentService(128);
      const first = recorded(repository, { early: true });
      await service.loadDiff(first.git, range);
      expect(first.events.filter((event) => event === 'blob')).toHaveLength(12);
      // The next commit's page shows the second commit's blobs as its old side.
      const again = recorded(repository, { early: true });
      const answer = await service.loadDiff(again.git, range);
      expect(again.events).toEqual(['patch']);
      expect(answer).toEqual(expected);
      expect(answer.blobs.map((blob) => String(blob.content))).toEqual(expected.blobs.map((blob) => String(blob.content)));
    } finally {
      await repository.close();
    }
  });
});
