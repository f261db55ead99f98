/** A command-line mistake: the CLI prints the message and the usage on stderr and exits 2. */
export class UsageError extends Error {
  readonly code = 'USAGE';

  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
