/**
 * How every git subprocess is started: no shell, a fixed environment that ignores the
 * user's and system's configuration, and options that make output predictable.
 */

import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/** The `git` executable, looked up on PATH. */
export const GIT_BINARY = 'git';

/**
 * The absolute path of the `git` that `path` (a PATH value) finds. Why: every spawn of plain
 * `git` makes the kernel try each PATH folder in turn; the first match is what those attempts
 * would have run anyway. Without a match, plain `git` (so the error stays Node's ENOENT).
 * @param path - the PATH to search
 * @returns the path to start git with
 */
export function findGitBinary(path: string): string {
  for (const folder of path.split(delimiter)) {
    if (!isAbsolute(folder)) continue;
    const candidate = join(folder, GIT_BINARY);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // Not in this folder.
    }
  }
  return GIT_BINARY;
}

/**
 * Builds the argument vector for one git invocation on a repository.
 * `safe.directory=*` because the storage may belong to another user (the node);
 * `core.quotePath=false` so paths in diff output are raw UTF-8.
 * @param gitDir - the repository's git directory
 * @param args - subcommand and its arguments (user-derived values after `--end-of-options`)
 * @returns the full argument vector (without the executable)
 */
export function gitArguments(gitDir: string, args: readonly string[]): string[] {
  return [`--git-dir=${gitDir}`, '-c', 'safe.directory=*', '-c', 'core.quotePath=false', ...args];
}

/**
 * The environment for git subprocesses: the parent's, minus every inherited `GIT_*`
 * variable (a stray `GIT_OBJECT_DIRECTORY` or `GIT_NAMESPACE` would redirect reads), plus
 * settings that disable system/global config, prompts, replace refs and locale effects.
 * Computed per spawn (cheap next to the spawn itself) so it follows the current environment.
 * @returns the environment object
 */
export function gitEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('GIT_') || key === 'GIT_EXEC_PATH') env[key] = value;
  }
  Object.assign(env, {
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_NO_REPLACE_OBJECTS: '1',
    GIT_OPTIONAL_LOCKS: '0',
    LC_ALL: 'C',
  });
  return env;
}
