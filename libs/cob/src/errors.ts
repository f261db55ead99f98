/**
 * Errors of the COB library. Codes follow the project rule: `*_NOT_FOUND` → 404,
 * `INVALID_*` → 400, anything else is internal.
 */

/** An action or change that the node would reject; evaluation prunes the change. */
export class CobApplyError extends Error {
  readonly code = 'COB_APPLY_REJECTED';
  constructor(message: string) {
    super(message);
    this.name = 'CobApplyError';
  }
}

/**
 * An action whose type this reader does not know (written by a newer tool, or another COB's
 * action). The node rejects it the same way, so it prunes like any {@link CobApplyError};
 * the type is kept so that the drop can be reported.
 */
export class UnknownCobActionError extends CobApplyError {
  constructor(
    readonly kind: string,
    readonly actionType: string,
  ) {
    super(`unknown ${kind} action ${actionType}`);
    this.name = 'UnknownCobActionError';
  }
}

/** The issue, patch or job asked for does not exist (or is invalid, which looks the same). */
export class CobNotFoundError extends Error {
  readonly code: string;
  constructor(kind: 'issue' | 'patch' | 'job' | 'identity', id: string) {
    super(`${kind} ${id} not found`);
    this.name = 'CobNotFoundError';
    this.code = `${kind.toUpperCase()}_NOT_FOUND`;
  }
}

/** A write-side request that a node would refuse (e.g. an unauthorised action). */
export class CobWriteError extends Error {
  readonly code = 'COB_WRITE_REJECTED';
  constructor(message: string) {
    super(message);
    this.name = 'CobWriteError';
  }
}
