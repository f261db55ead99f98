/**
 * Runs the git CLI for the diff oracle and its fixture generator: no shell, configuration
 * isolated from the user's and the system's, output as bytes.
 */
import { execFile } from 'node:child_process';
import { DIFF_TREE_OPTIONS, EMPTY_TREE_OID } from '@forge-httpd/storage';

const ENV: NodeJS.ProcessEnv = {
  PATH: process.env['PATH'] ?? '/usr/bin:/bin',
  HOME: process.env['HOME'] ?? '/',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  LC_ALL: 'C',
};

/** One git invocation. */
export interface GitExec {
  readonly gitDir: string;
  readonly args: readonly string[];
  readonly input?: Buffer | string;
}

/**
 * Runs `git --git-dir=<gitDir> -c core.quotePath=false <args>`.
 * @param exec - repository, arguments and optional stdin
 * @returns stdout bytes
 * @throws Error with git's stderr when git fails
 */
export function execGit(exec: GitExec): Promise<Buffer> {
  const args = [`--git-dir=${exec.gitDir}`, '-c', 'core.quotePath=false', ...exec.args];
  return new Promise((resolve, reject) => {
    const child = execFile('git', args, { env: ENV, encoding: 'buffer', maxBuffer: 512 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`git ${exec.args[0] ?? ''} failed: ${stderr.toString('utf8').trim() || error.message}`));
      else resolve(stdout);
    });
    // git may exit before reading stdin; its exit status tells what happened.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(exec.input ?? '');
  });
}

/** The diff format the server asks git for: the oracle checks exactly what is served. */
const SERVER_DIFF_ARGS: readonly string[] = DIFF_TREE_OPTIONS;

/** git's empty tree, diffed against for root commits. */
export const EMPTY_TREE = EMPTY_TREE_OID;

/**
 * git's diff between two commits, in the server's format.
 * @param gitDir - repository
 * @param from - old commit, or null for a root commit (empty tree)
 * @param to - new commit
 * @returns git's output bytes
 */
export function gitDiff(gitDir: string, from: string | null, to: string): Promise<Buffer> {
  return execGit({ gitDir, args: [...SERVER_DIFF_ARGS, '--end-of-options', from ?? EMPTY_TREE, to] });
}
