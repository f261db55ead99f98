import { GitProcesses } from '../processes/git-processes.js';
import { runGit } from '../processes/run-git.js';

/**
 * Packs objects and refs the way a long-running node leaves storage (docs/node-home.md §3:
 * packfiles and `packed-refs` are normal): `git gc --quiet` (with a commit-graph) and
 * `git pack-refs --all`. Symbolic refs stay loose.
 * @param gitDir - the repository's git directory
 * @param processes - the processes git runs under (default: its own, for a one-off write)
 * @throws ProcessFailedError when git fails
 */
export async function repackRepository(gitDir: string, processes: GitProcesses = new GitProcesses()): Promise<void> {
  const config = ['-c', 'gc.writeCommitGraph=true', '-c', 'gc.autoDetach=false'];
  await runGit({ gitDir, processes, args: [...config, 'gc', '--quiet'], timeoutMs: 600_000 });
  await runGit({ gitDir, processes, args: ['pack-refs', '--all'] });
}
