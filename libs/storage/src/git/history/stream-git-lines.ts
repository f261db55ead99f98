import { streamGit, type GitInvocation } from '../processes/run-git.js';

/**
 * Runs git and hands each complete stdout line (without `\n`, decoded as UTF-8) to `onLine`;
 * returning `'stop'` kills the process, so walks end as soon as enough lines were seen.
 * @param invocation - repository and arguments
 * @param onLine - receives lines in order
 * @throws ProcessFailedError when git fails (not when stopped)
 */
export async function streamGitLines(invocation: GitInvocation, onLine: (line: string) => 'stop' | void): Promise<void> {
  let partial = '';
  let stopped = false;
  await streamGit(invocation, (chunk) => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (onLine(line) === 'stop') {
        stopped = true;
        return 'stop';
      }
    }
    return undefined;
  });
  if (!stopped && partial !== '') onLine(partial);
}
