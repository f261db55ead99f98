import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';

/** How often a missing database file is looked for again. */
const RETRY_MS = 1000;

/**
 * A read-only SQLite connection opened once, on first use, and kept. A database file that does
 * not exist yet reads as empty: every query answers its "no rows" value and the file is looked
 * for again at most once a second, so a node that creates its databases after the server
 * started is picked up without a restart. Queries are prepared once per connection; a query
 * that does not prepare (e.g. a column missing in an old schema) also reads as empty.
 */
export class ReadonlyDatabase {
  private db: Database.Database | null = null;
  private lastAttempt = Number.NEGATIVE_INFINITY;
  private readonly statements = new Map<string, Database.Statement | null>();

  constructor(
    private readonly path: string,
    private readonly onError: (message: string, error: unknown) => void = () => {},
  ) {}

  /** Returns the prepared statement for `sql`, or null while the database is unavailable. */
  statement(sql: string): Database.Statement | null {
    const db = this.connection();
    if (!db) return null;
    if (!this.statements.has(sql)) {
      try {
        this.statements.set(sql, db.prepare(sql));
      } catch (error) {
        this.onError(`cannot prepare a query on ${this.path}`, error);
        this.statements.set(sql, null);
      }
    }
    return this.statements.get(sql) ?? null;
  }

  /** Runs `sql` and returns its first row, or undefined when there is none or no database. */
  get<T>(sql: string, ...params: unknown[]): T | undefined {
    return this.statement(sql)?.get(...params) as T | undefined;
  }

  /** Runs `sql` and returns all rows ([] without a database). */
  all<T>(sql: string, ...params: unknown[]): T[] {
    return (this.statement(sql)?.all(...params) as T[] | undefined) ?? [];
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
      // Concurrent node writes hold the lock only briefly; wait instead of failing a request.
      this.db.pragma('busy_timeout = 2000');
    } catch (error) {
      this.onError(`cannot open ${this.path}`, error);
    }
    return this.db;
  }
}
