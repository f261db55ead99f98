/**
 * Test helper (named *.test.ts so jest does not run it and the library build skips it):
 * real git diffs of two-commit scratch histories, written in a temp dir per spec file.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gitDiff, type ScratchChange, type ScratchCommit, writeScratchHistory } from '@forge-httpd/builder/scratch';
import { parseGitPatch } from './parse-git-patch.js';
import type { DiffContent, FileDiff } from './types.js';

/** Twenty indented lines (no function context of their own). */
export const LINES = Array.from({ length: 20 }, (_, index) => `    line ${index + 1}\n`).join('');

/** Git's output and its parse. */
export interface ScratchDiff {
  output: Buffer;
  files: FileDiff[];
}

/** What {@link useScratchRepos} gives a spec. */
export interface ScratchRepos {
  /** Commits `before`, then `after` on top, and diffs them with the server's git options. */
  diffOf(before: ScratchChange[], after: ScratchChange[]): Promise<ScratchDiff>;
  /** Writes a history and returns its commit ids plus the repository directory. */
  history(commits: ScratchCommit[]): Promise<{ gitDir: string; ids: string[] }>;
}

/** Registers beforeAll/afterAll for a temp dir of scratch repositories. */
export function useScratchRepos(): ScratchRepos {
  let root = '';
  let counter = 0;
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'forge-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });
  const history = async (commits: ScratchCommit[]) => {
    const gitDir = path.join(root, `repo-${counter++}.git`);
    return { gitDir, ids: await writeScratchHistory(gitDir, commits) };
  };
  const diffOf = async (before: ScratchChange[], after: ScratchChange[]): Promise<ScratchDiff> => {
    const { gitDir, ids } = await history([
      { message: 'before\n', time: 1_700_000_000, changes: before },
      { message: 'after\n', time: 1_700_000_100, changes: after },
    ]);
    const output = await gitDiff(gitDir, ids[0] ?? '', ids[1] ?? '');
    return { output, files: parseGitPatch(output) };
  };
  return { diffOf, history };
}

/** Narrows a content to a plain diff. */
export function plain(content: DiffContent): Extract<DiffContent, { type: 'plain' }> {
  if (content.type !== 'plain') throw new Error(`expected a plain diff, got ${content.type}`);
  return content;
}

/** The single file of a diff. */
export function only(files: FileDiff[]): FileDiff {
  expect(files).toHaveLength(1);
  return files[0] as FileDiff;
}
