import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { GitCommandError } from './errors.js';
import { GIT_BINARY, gitArguments, gitEnvironment } from './git-command.js';

/**
 * Starts git on a repository with three pipes, no shell and the isolated environment.
 * When the process is out of file descriptors (EMFILE/ENFILE), Node creates no pipes and
 * reports the failure only by an 'error' event on the next tick, which would be unhandled
 * (and end the server) before a caller could listen: here it is absorbed and the failure
 * thrown at once instead.
 * @param gitDir - the repository's git directory
 * @param args - subcommand and arguments (user-derived values after `--end-of-options`)
 * @returns the running process with its pipes
 * @throws GitCommandError when the process could not be set up
 */
export function spawnGit(gitDir: string, args: readonly string[]): ChildProcessWithoutNullStreams {
  const child = spawn(GIT_BINARY, gitArguments(gitDir, args), {
    env: gitEnvironment(),
    stdio: ['pipe', 'pipe', 'pipe'],
    shell: false,
  }) as Partial<ChildProcessWithoutNullStreams> & ChildProcessWithoutNullStreams;
  if (child.stdin == null || child.stdout == null || child.stderr == null) {
    child.on('error', () => undefined);
    throw new GitCommandError(`git ${args[0] ?? ''} could not be started (no pipes: out of file descriptors?)`);
  }
  return child;
}
