/**
 * Errors of @forge-httpd/diff. Not client-facing: an unparsable diff is an internal failure.
 */

/** git's diff output did not have the expected shape (maps to 500). */
export class DiffFormatError extends Error {
  readonly code = 'DIFF_FORMAT';

  constructor(message: string) {
    super(message);
    this.name = 'DiffFormatError';
  }
}
