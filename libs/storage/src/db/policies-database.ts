import { ReadonlyDatabase } from './readonly-database.js';
import { type SeedingPolicy, seedingPolicyFromRow } from './seeding-policy.js';

/** A stored seeding policy row: the repository text as stored and its policy. */
export interface SeedingPolicyEntry {
  rid: string;
  policy: SeedingPolicy;
}

interface SeedingRow {
  id: unknown;
  scope: string | null;
  policy: string | null;
}

/**
 * Read-only view of `node/policies.db` (docs/node-home.md §8.2). Only stored rows are reported;
 * the default policy from config.json is the caller's business. A missing file reads as empty.
 */
export class PoliciesDatabase {
  private readonly db: ReadonlyDatabase;

  constructor(path: string, onError?: (message: string, error: unknown) => void) {
    this.db = new ReadonlyDatabase(path, onError);
  }

  /** Every `seeding` row in table (rowid) order. */
  seedingPolicies(): SeedingPolicyEntry[] {
    const rows = this.db.all<SeedingRow>('SELECT "id", "scope", "policy" FROM "seeding" ORDER BY rowid');
    return rows
      .filter((row): row is SeedingRow & { id: string } => typeof row.id === 'string')
      .map((row) => ({ rid: row.id, policy: seedingPolicyFromRow(row) }));
  }

  /** The stored policy for `rid` (`rad:z…`), or null when there is no row. */
  seedingPolicy(rid: string): SeedingPolicy | null {
    const row = this.db.get<SeedingRow>('SELECT "id", "scope", "policy" FROM "seeding" WHERE "id" = ?', rid);
    return row ? seedingPolicyFromRow(row) : null;
  }

  /** The alias given when following `nid`, or null without a row or with an empty alias. */
  followAlias(nid: string): string | null {
    const row = this.db.get<{ alias: unknown }>('SELECT "alias" FROM "following" WHERE "id" = ?', nid);
    return typeof row?.alias === 'string' && row.alias !== '' ? row.alias : null;
  }

  /**
   * A stamp that changes whenever the node commits to policies.db (or the file appears, is replaced
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
