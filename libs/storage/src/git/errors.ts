/**
 * Errors raised by the git layer. None of them is client-facing except InvalidRefNameError.
 */

/** A git subprocess failed (non-zero exit, killed, or unparsable output); maps to 500. */
export class GitCommandError extends Error {
  readonly code = 'GIT_COMMAND_FAILED';

  readonly exitCode: number | null;
  readonly stderr: string;

  constructor(message: string, details: { exitCode?: number | null; stderr?: string } = {}) {
    super(message);
    this.exitCode = details.exitCode ?? null;
    this.stderr = details.stderr ?? '';
    this.name = 'GitCommandError';
  }
}

/** A stored object's bytes do not follow git's object format; maps to 500. */
export class GitObjectFormatError extends Error {
  readonly code = 'GIT_BAD_OBJECT';

  constructor(message: string) {
    super(message);
    this.name = 'GitObjectFormatError';
  }
}

/** A reference name failed validation; the message is safe to show to clients. */
export class InvalidRefNameError extends Error {
  readonly code = 'INVALID_REF_NAME';

  constructor(parameter = 'ref') {
    super(`Invalid ${parameter}: expected a fully qualified git reference name`);
    this.name = 'InvalidRefNameError';
  }
}

/**
 * Too many whole-history range walks are running and waiting (see walk-commits-until.ts);
 * maps to 503 with `retry-after`, like a full git server pool.
 */
export class RangeWalkBusyError extends Error {
  readonly code = 'RANGE_WALK_BUSY';

  constructor() {
    super('too many long history walks under way');
    this.name = 'RangeWalkBusyError';
  }
}

/**
 * A pack or pack index read in process does not follow git's format. Never reaches a client:
 * the in-process reader gives the object up and git answers instead.
 */
export class PackFormatError extends Error {
  readonly code = 'GIT_BAD_PACK';

  constructor(message: string) {
    super(message);
    this.name = 'PackFormatError';
  }
}
