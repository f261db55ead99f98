/**
 * Another connection holds a lock on a node database longer than a reader waits (a node
 * migrating it, a stray `sqlite3` shell in a transaction); maps to 503, nothing is wrong with
 * the request.
 */
export class DatabaseBusyError extends Error {
  readonly code = 'DATABASE_BUSY';

  constructor(path: string, options?: ErrorOptions) {
    super(`${path} is locked by another connection`, options);
    this.name = 'DatabaseBusyError';
  }
}
