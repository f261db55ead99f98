import path from 'node:path';
import { runGit } from './git-cli.js';

/** A git repository to import: its git dir, the ref to import and the branch name to use. */
export interface SourceHistory {
  readonly gitDir: string;
  /** `refs/heads/<branch>`, or `HEAD` when detached. */
  readonly ref: string;
  readonly branch: string;
}

/**
 * Finds the git repository containing `cwd` (`git rev-parse --git-dir`) and its current branch,
 * for importing a real history into the demo.
 * @param cwd - a directory, usually `process.cwd()`
 * @returns null when `cwd` is not inside a git repository or it has no commits
 */
export async function sourceHistory(cwd: string): Promise<SourceHistory | null> {
  try {
    const gitDir = path.resolve(cwd, (await runGit(['rev-parse', '--git-dir'], { cwd })).trim());
    await runGit(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { gitDir });
    const branch = (await runGit(['symbolic-ref', '--quiet', '--short', 'HEAD'], { gitDir, okExitCodes: [0, 1] })).trim();
    return branch === '' ? { gitDir, ref: 'HEAD', branch: 'main' } : { gitDir, ref: `refs/heads/${branch}`, branch };
  } catch {
    return null;
  }
}
