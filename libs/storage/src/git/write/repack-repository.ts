import { runGit } from '../processes/run-git.js';

/**
 * Packs objects and refs the way a long-running node leaves storage (docs/node-home.md §3:
 * packfiles and `packed-refs` are normal): `git gc --quiet` (with a commit-graph) and
 * `git pack-refs --all`. Symbolic refs stay loose.
 * @param gitDir - the repository's git directory
 * @throws ProcessFailedError when git fails
 */
export async function repackRepository(gitDir: string): Promise<void> {
  const config = ['-c', 'gc.writeCommitGraph=true', '-c', 'gc.autoDetach=false'];
  await runGit({ gitDir, args: [...config, 'gc', '--quiet'], timeoutMs: 600_000 });
  await runGit({ gitDir, args: ['pack-refs', '--all'] });
}
