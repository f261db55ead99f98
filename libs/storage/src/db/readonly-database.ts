import { LockedError } from '@forge-httpd/identity';
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';

/** How often a missing database file is looked for again, and how long a lock fails fast. */
const RETRY_MS = 1000;
/**
 * How long a query waits for another connection's lock. better-sqlite3 waits synchronously,
 * holding the event loop, so this stays short: the node's own writes hold locks for
 * milliseconds, and a lock held longer answers 503 instead of stalling every request.
 */
const BUSY_TIMEOUT_MS = 200;

/**
 * A read-only SQLite connection opened once, on first use, and kept. A database file that does
 * not exist yet reads as empty: every query answers its "no rows" value and the file is looked
 * for again at most once a second, so a node that creates its databases after the server
 * started is picked up without a restart. Queries are prepared once per connection; a query
 * that does not prepare (e.g. a column missing in an old schema) also reads as empty.
 * A lock held past {@link BUSY_TIMEOUT_MS} throws {@link LockedError} (and for a second
 * after, without waiting again); any other query failure (a corrupt or replaced file) drops the
 * connection, so the next use reopens the file instead of trusting pages cached from it.
 */
export class ReadonlyDatabase {
  private db: Database.Database | null = null;
  private lastAttempt = Number.NEGATIVE_INFINITY;
  /** When a query last found the database locked (cleared by a query that succeeds). */
  private busySince: number | null = null;
  private readonly statements = new Map<string, Database.Statement | null>();
  /** Connections opened so far: a reopened connection starts its own `data_version` count. */
  private opened = 0;

  constructor(
    private readonly path: string,
    private readonly onError: (message: string, error: unknown) => void = () => {},
  ) {}

  /**
   * Returns the prepared statement for `sql`, or null while the database is unavailable or the
   * query does not fit its schema.
   * @throws LockedError when the schema is locked; SQLite's error for a damaged file
   */
  statement(sql: string): Database.Statement | null {
    const db = this.connection();
    if (!db) return null;
    if (!this.statements.has(sql)) {
      try {
        this.statements.set(sql, db.prepare(sql));
      } catch (error) {
        // Preparing reads the schema: a lock or a damaged file is not an old schema.
        if (!isSchemaError(error)) throw this.failed(error);
        this.onError(`cannot prepare a query on ${this.path}`, error);
        this.statements.set(sql, null);
      }
    }
    return this.statements.get(sql) ?? null;
  }

  /**
   * Moves whenever another connection (the node) commits to the database (SQLite's `PRAGMA
   * data_version`, ~2 µs a call) and when the connection is opened, reopened or lost: results
   * derived from the database may be reused while it stays the same.
   * @throws LockedError when the database is locked
   */
  changeStamp(): string {
    const version = this.get<{ data_version: number }>('PRAGMA data_version');
    return version === undefined ? '-' : `${this.opened}:${version.data_version}`;
  }

  /** Runs `sql` and returns its first row, or undefined when there is none or no database. */
  get<T>(sql: string, ...params: unknown[]): T | undefined {
    return this.query(sql, (statement) => statement.get(...params) as T | undefined, undefined);
  }

  /** Runs `sql` and returns all rows ([] without a database). */
  all<T>(sql: string, ...params: unknown[]): T[] {
    return this.query(sql, (statement) => statement.all(...params) as T[], []);
  }

  private query<T>(sql: string, run: (statement: Database.Statement) => T, empty: T): T {
    if (this.busySince !== null && Date.now() - this.busySince < RETRY_MS) throw new LockedError(`${this.path} is locked by another connection`);
    const statement = this.statement(sql);
    if (!statement) return empty;
    let result: T;
    try {
      result = run(statement);
    } catch (error) {
      throw this.failed(error);
    }
    this.busySince = null;
    return result;
  }

  private failed(error: unknown): Error {
    const code = (error as { code?: unknown }).code;
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
      if (this.busySince === null) this.onError(`${this.path} is locked by another connection`, error);
      this.busySince = Date.now();
      return new LockedError(`${this.path} is locked by another connection`, { cause: error });
    }
    // In WAL mode SQLite trusts pages it cached while nothing in the WAL index changed, so a
    // connection that read a damaged file keeps failing after the file is repaired: reopen.
    this.db?.close();
    this.db = null;
    this.statements.clear();
    this.lastAttempt = Number.NEGATIVE_INFINITY;
    return error instanceof Error ? error : new Error(String(error));
  }

  /** Closes the connection (idempotent). */
  close(): void {
    this.db?.close();
    this.db = null;
    this.statements.clear();
    this.lastAttempt = Number.POSITIVE_INFINITY;
  }

  private connection(): Database.Database | null {
    if (this.db) return this.db;
    const now = Date.now();
    if (now - this.lastAttempt < RETRY_MS) return null;
    this.lastAttempt = now;
    if (!existsSync(this.path)) return null;
    try {
      this.db = new Database(this.path, { readonly: true, fileMustExist: true });
      this.opened += 1;
      // Concurrent node writes hold the lock only briefly; wait a little instead of failing.
      this.db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    } catch (error) {
      this.onError(`cannot open ${this.path}`, error);
    }
    return this.db;
  }
}

/** True for SQLite's answer to a query naming tables or columns the file does not have. */
function isSchemaError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_ERROR' || code === undefined;
}
