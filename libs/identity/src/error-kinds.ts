/**
 * The kinds of error the libraries and the app throw, one class each. A kind says what went
 * wrong, never how to answer it: the app's one table maps each `code` to an HTTP status and a
 * body (ARCHITECTURE.md "Errors"). They live here, at the bottom of the library graph, so that
 * storage, cob and the app share them. The detail is in the message and a few fields.
 */

/** Every error kind's `code`. */
export type ErrorCode = 'not-found' | 'invalid-input' | 'too-large' | 'forbidden' | 'busy' | 'locked' | 'invalid-data' | 'process-failed' | 'rejected';

/** What was asked for and does not exist: a repository, commit, path, remote, issue, patch… */
export class NotFoundError extends Error {
  readonly code = 'not-found';

  /**
   * @param what - what is missing, e.g. `repository`, `commit`, `issue`
   * @param message - default `<what> not found`
   */
  constructor(
    readonly what: string,
    message = `${what} not found`,
  ) {
    super(message);
    this.name = 'NotFoundError';
  }
}

/**
 * A text given by a caller (route parameter, query value, id, key) is malformed. The message
 * is safe to show to clients: it names the parameter and the expected form, never the
 * offending input or a path (e.g. `Invalid rid: expected rad:z… (base58 of 20 bytes)`).
 */
export class InvalidInputError extends Error {
  readonly code = 'invalid-input';

  constructor(message: string) {
    super(message);
    this.name = 'InvalidInputError';
  }
}

/** Something asked for or sent is above the bound this server serves or reads. */
export class TooLargeError extends Error {
  readonly code = 'too-large';

  constructor(message: string) {
    super(message);
    this.name = 'TooLargeError';
  }
}

/** An operation this read-only server never does (a push). */
export class ForbiddenError extends Error {
  readonly code = 'forbidden';

  constructor(message: string) {
    super(message);
    this.name = 'ForbiddenError';
  }
}

/**
 * Too much of one kind of work is under way or waiting (git server processes, long history
 * walks, big pages); the caller should retry later. The message says what is busy and is
 * safe to show to clients (e.g. `too many git processes running`).
 */
export class BusyError extends Error {
  readonly code = 'busy';

  constructor(message: string) {
    super(message);
    this.name = 'BusyError';
  }
}

/** Another connection holds a lock on a node database longer than a reader waits. */
export class LockedError extends Error {
  readonly code = 'locked';

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'LockedError';
  }
}

/**
 * What the server reads is missing or breaks its format or rules: the node home, config.json,
 * a git object or pack, git's output, a change commit, an identity document, a head without
 * quorum. Never the caller's fault.
 */
export class InvalidDataError extends Error {
  readonly code = 'invalid-data';

  /**
   * @param what - what is invalid, e.g. `object`, `pack`, `config`, `home`, `change`
   * @param message - the detail, for the log
   */
  constructor(
    readonly what: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'InvalidDataError';
  }
}

/** A subprocess (git) cannot run, exits with a failure, is killed, or answers unexpectedly. */
export class ProcessFailedError extends Error {
  readonly code = 'process-failed';

  readonly exitCode: number | null;
  readonly stderr: string;

  constructor(message: string, details: { exitCode?: number | null; stderr?: string; cause?: unknown } = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.exitCode = details.exitCode ?? null;
    this.stderr = details.stderr ?? '';
    this.name = 'ProcessFailedError';
  }
}

/** When a node still accepts a change that broke a rule of its collaborative object. */
export type Tolerance = 'never' | 'with-concurrent-changes' | 'always';

/**
 * An action or change of a collaborative object that a node would reject (evaluation prunes
 * the change), or a write it would refuse.
 */
export class RejectedError extends Error {
  readonly code = 'rejected';

  /** The action type, when the action is of a type this reader does not know. */
  readonly unknownAction: string | null;
  /** When the node tolerates the change anyway (a vote racing a concurrent change, a redacted target). */
  readonly tolerance: Tolerance;

  constructor(message: string, details: { unknownAction?: string; tolerance?: Tolerance } = {}) {
    super(message);
    this.unknownAction = details.unknownAction ?? null;
    this.tolerance = details.tolerance ?? 'never';
    this.name = 'RejectedError';
  }
}
