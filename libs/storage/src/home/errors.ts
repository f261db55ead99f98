/**
 * The node home cannot be used: the directory or `keys/radicle.pub` is missing or unreadable
 * (docs/node-home.md §1, §2.5). Fatal at startup.
 */
export class HomeInvalidError extends Error {
  readonly code = 'HOME_INVALID';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'HomeInvalidError';
  }
}
