/**
 * Errors of the git server processes (upload-pack, archive). Codes follow ARCHITECTURE.md
 * "Errors"; the app maps `_BUSY` to 503.
 */

/** Every git server process slot is taken; the caller should retry later. */
export class GitServerBusyError extends Error {
  readonly code = 'GIT_SERVER_BUSY';

  constructor(max: number) {
    super(`all ${max} git server processes are busy`);
    this.name = 'GitServerBusyError';
  }
}

/** A git server process ran past its time limit and was killed. */
export class GitServerTimeoutError extends Error {
  readonly code = 'GIT_SERVER_TIMEOUT';

  constructor(command: string, timeoutMs: number) {
    super(`git ${command} killed after ${timeoutMs} ms`);
    this.name = 'GitServerTimeoutError';
  }
}

/** A git server process failed (non-zero exit) where its output must not look complete. */
export class GitServerExitError extends Error {
  readonly code = 'GIT_SERVER_FAILED';

  constructor(command: string, exit: number | string, stderr: string) {
    super(`git ${command} exited with ${exit}: ${stderr.trim()}`);
    this.name = 'GitServerExitError';
  }
}
