import { execFile } from 'node:child_process';
import { gitEnvironment } from '@forge-httpd/storage';

/** Options of one git invocation by the builder. */
export interface BuilderGitOptions {
  /** Repository the command runs on (`--git-dir`). */
  readonly gitDir?: string;
  /** Bytes for stdin. */
  readonly input?: string | Buffer;
  /** Exit codes that are not failures (default `[0]`). */
  readonly okExitCodes?: readonly number[];
  /** Working directory (for commands that discover the repository themselves). */
  readonly cwd?: string;
}

/**
 * Runs git without a shell and returns stdout. `safe.directory=*` lets the builder import from
 * repositories owned by another user (it is passed on to `upload-pack` children too).
 * @param args - subcommand and arguments
 * @param options - repository, stdin and accepted exit codes
 * @returns stdout as UTF-8 text
 * @throws Error with git's stderr when git fails
 */
export function runGit(args: readonly string[], options: BuilderGitOptions = {}): Promise<string> {
  const prefix = options.gitDir === undefined ? [] : [`--git-dir=${options.gitDir}`];
  const argv = [...prefix, '-c', 'safe.directory=*', ...args];
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      argv,
      // The same isolated environment as the server's reads: inherited GIT_* variables and the
      // user's config would make the builder's output depend on the machine.
      { env: gitEnvironment(), cwd: options.cwd, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        if ((options.okExitCodes ?? [0]).includes(code)) return resolve(stdout);
        reject(new Error(`git ${args[0] ?? ''} failed (${code}): ${stderr.trim()}`));
      },
    );
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(options.input ?? '');
  });
}
