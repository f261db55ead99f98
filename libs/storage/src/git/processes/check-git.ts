import { ProcessFailedError } from '@forge-httpd/identity';
import { execFile } from 'node:child_process';
import { GIT_BINARY, gitEnvironment } from './git-command.js';

/** Oldest git that has everything the reader uses (`cat-file --batch-command`: git 2.36). */
export const MIN_GIT_VERSION: readonly [number, number] = [2, 36];

const REQUIRED = `forge-httpd reads repositories with git ${MIN_GIT_VERSION.join('.')} or newer`;

/**
 * Runs `git --version` once, so a server without a usable git stops at start with one clear
 * line instead of answering every repository route with a 500.
 * @returns the version text (`2.39.5`)
 * @throws ProcessFailedError when git cannot be run or is too old
 */
export function checkGit(): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(GIT_BINARY, ['--version'], { env: gitEnvironment(), timeout: 10_000 }, (error, stdout) => {
      if (error !== null) {
        const missing = (error as { code?: unknown }).code === 'ENOENT';
        reject(
          new ProcessFailedError(missing ? `git was not found on PATH (${REQUIRED})` : `git --version failed: ${error.message} (${REQUIRED})`, {
            cause: error,
          }),
        );
        return;
      }
      const match = /git version (\d+)\.(\d+)[^\s]*/.exec(stdout);
      const [major, minor] = [Number(match?.[1]), Number(match?.[2])];
      if (match === null || major < MIN_GIT_VERSION[0] || (major === MIN_GIT_VERSION[0] && minor < MIN_GIT_VERSION[1])) {
        reject(new ProcessFailedError(`git ${match?.[0].slice(12) ?? stdout.trim()} is too old (${REQUIRED})`));
        return;
      }
      resolve(match[0].slice(12));
    });
  });
}
