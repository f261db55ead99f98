import { compareUtf8 } from '@forge-httpd/identity';
import { ReadonlyDatabase } from './readonly-database.js';

/**
 * Read-only view of `node/node.db` (docs/node-home.md §8.1). Only the columns named below are
 * read, so tables and columns added by newer nodes are ignored and `user_version` is never
 * checked. A missing file reads as empty (see {@link ReadonlyDatabase}).
 */
export class NodeDatabase {
  private readonly db: ReadonlyDatabase;

  constructor(path: string, onError?: (message: string, error: unknown) => void) {
    this.db = new ReadonlyDatabase(path, onError);
  }

  /** The user agent (`/radicle:1.2.0/`) announced by `nid`, or null without a row. */
  agent(nid: string): string | null {
    const row = this.db.get<{ agent: unknown }>('SELECT "agent" FROM "nodes" WHERE "id" = ?', nid);
    return typeof row?.agent === 'string' ? row.agent : null;
  }

  /** The alias `nid` announced, or null without a row or with an empty alias. */
  alias(nid: string): string | null {
    const row = this.db.get<{ alias: unknown }>('SELECT "alias" FROM "nodes" WHERE "id" = ?', nid);
    return typeof row?.alias === 'string' && row.alias !== '' ? row.alias : null;
  }

  /** How many nodes are known to seed `rid` (its `routing` rows). */
  seedCount(rid: string): number {
    const row = this.db.get<{ n: number }>('SELECT COUNT(*) AS "n" FROM "routing" WHERE "repo" = ?', rid);
    return row?.n ?? 0;
  }

  /** Seed counts of every RID with at least one `routing` row, in one query. */
  seedCounts(): Map<string, number> {
    const rows = this.db.all<{ repo: unknown; n: number }>('SELECT "repo", COUNT(*) AS "n" FROM "routing" GROUP BY "repo"');
    const counts = new Map<string, number>();
    for (const row of rows) if (typeof row.repo === 'string') counts.set(row.repo, row.n);
    return counts;
  }

  /** The RIDs `nid` announced (its `routing` rows), sorted by RID text, duplicates removed. */
  inventory(nid: string): string[] {
    const rows = this.db.all<{ repo: unknown }>('SELECT "repo" FROM "routing" WHERE "node" = ?', nid);
    const repos = new Set<string>();
    for (const row of rows) if (typeof row.repo === 'string') repos.add(row.repo);
    // RIDs are ASCII, so code-unit order is byte order.
    return [...repos].sort(compareUtf8);
  }

  /** How many `routing` rows name `nid` (size of its inventory). */
  routingCount(nid: string): number {
    const row = this.db.get<{ n: number }>('SELECT COUNT(*) AS "n" FROM "routing" WHERE "node" = ?', nid);
    return row?.n ?? 0;
  }

  /**
   * A stamp that changes whenever the node commits to node.db (or the file appears, is replaced
   * or becomes unreadable): answers read from it may be reused while it is the same.
   * @throws LockedError when the database is locked
   */
  changeStamp(): string {
    return this.db.changeStamp();
  }

  /** Closes the connection. */
  close(): void {
    this.db.close();
  }
}
