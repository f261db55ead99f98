import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { COB_CACHE_DB_SCHEMA, COB_CACHE_DB_VERSION, NODE_DB_MIGRATIONS, NODE_DB_VERSION, NOTIFICATIONS_DB_SCHEMA, POLICIES_DB_SCHEMA } from './schemas.js';

/** A writable better-sqlite3 connection, as returned by the `create*Database` functions. */
export type WritableDatabase = Database.Database;

function createWithSchema(path: string, statements: readonly string[], userVersion?: number): WritableDatabase {
  mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.transaction(() => {
    for (const sql of statements) db.exec(sql);
    if (userVersion !== undefined) db.pragma(`user_version = ${userVersion}`);
  })();
  return db;
}

/**
 * Creates `node/node.db` with heartwood's schema after migrations 1–6 (docs/node-home.md §8.1):
 * WAL journal, `user_version` 6, foreign keys on. The caller closes the returned connection.
 */
export function createNodeDatabase(path: string): WritableDatabase {
  const db = createWithSchema(path, NODE_DB_MIGRATIONS, NODE_DB_VERSION);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  return db;
}

/** Creates `node/policies.db` with the `following` and `seeding` tables (§8.2). */
export function createPoliciesDatabase(path: string): WritableDatabase {
  return createWithSchema(path, POLICIES_DB_SCHEMA);
}

/** Creates `node/notifications.db` with its two empty tables (§8.3). */
export function createNotificationsDatabase(path: string): WritableDatabase {
  return createWithSchema(path, NOTIFICATIONS_DB_SCHEMA);
}

/** Creates `cobs/cache.db` (issues, patches) at `user_version` 2 (§8.4). */
export function createCobCacheDatabase(path: string): WritableDatabase {
  return createWithSchema(path, COB_CACHE_DB_SCHEMA, COB_CACHE_DB_VERSION);
}
