/**
 * Errors raised by the app itself. Like library errors they carry a `code` that the global
 * filter maps to a status (ARCHITECTURE.md "Errors").
 */

/** The repository is absent or private; both answer the same 404. */
export class RepoNotFoundError extends Error {
  readonly code = 'REPO_NOT_FOUND';

  constructor() {
    super('repository not found');
    this.name = 'RepoNotFoundError';
  }
}

/** A path or query parameter is malformed; the message names it and is client-safe. */
export class InvalidParameterError extends Error {
  readonly code = 'INVALID_PARAMETER';

  /** @param message - e.g. `Invalid perPage: expected a non-negative integer` */
  constructor(message: string) {
    super(message);
    this.name = 'InvalidParameterError';
  }
}

/** A blob or readme is above the served size; answered 413 `[]` with `no-cache` (docs/api.md 17). */
export class TooLargeError extends Error {
  readonly code = 'BLOB_TOO_LARGE';

  constructor() {
    super('blob too large');
    this.name = 'TooLargeError';
  }
}

/** A raw file or blob is above the served size (10 MiB); answered 413 with the JSON error body. */
export class RawFileTooLargeError extends Error {
  readonly code = 'RAW_FILE_OVER_LIMIT';

  constructor() {
    super('raw file over the size limit');
    this.name = 'RawFileTooLargeError';
  }
}

/** A git protocol request body above its cap (after decompression); answered 413 with the JSON error body. */
export class RequestBodyTooLargeError extends Error {
  readonly code = 'REQUEST_BODY_OVER_LIMIT';

  constructor() {
    super('request body over the size limit');
    this.name = 'RequestBodyTooLargeError';
  }
}

/** A push (git-receive-pack): this server is read-only; answered 403. */
export class PushRefusedError extends Error {
  readonly code = 'PUSH_FORBIDDEN';

  constructor() {
    super('pushes are not accepted');
    this.name = 'PushRefusedError';
  }
}
