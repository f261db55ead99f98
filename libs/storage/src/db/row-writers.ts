import type { WritableDatabase } from './create-databases.js';
import type { SeedingPolicy } from './seeding-policy.js';

/** A `nodes` row (docs/node-home.md §8.1); omitted fields take heartwood's `rad auth` values. */
export interface NodeRow {
  id: string;
  alias: string;
  /** Milliseconds since the epoch. */
  timestamp: number;
  features?: number;
  pow?: number;
  banned?: boolean;
  penalty?: number;
  version?: number;
  agent?: string;
}

/** An `addresses` row (§8.1). */
export interface AddressRow {
  node: string;
  type: 'ipv4' | 'ipv6' | 'dns' | 'onion';
  /** `host:port`. */
  value: string;
  source: 'peer' | 'bootstrap' | 'imported';
  timestamp: number;
  lastAttempt?: number | null;
  lastSuccess?: number | null;
  banned?: boolean;
}

/** A `routing` row: `node` announced that it seeds `repo` (§8.1). */
export interface RoutingRow {
  repo: string;
  node: string;
  timestamp: number;
}

/** A `following` row (§8.2). */
export interface FollowPolicyRow {
  nid: string;
  alias?: string;
  policy?: 'allow' | 'block';
}

/** Inserts (or replaces) a `nodes` row in node.db. */
export function insertNode(db: WritableDatabase, row: NodeRow): void {
  db.prepare(
    `insert or replace into "nodes"
     ("id", "features", "alias", "pow", "timestamp", "banned", "penalty", "version", "agent")
     values (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(row.id, row.features ?? 1, row.alias, row.pow ?? 0, row.timestamp, row.banned ? 1 : 0, row.penalty ?? 0, row.version ?? 1, row.agent ?? '/radicle/');
}

/** Inserts (or replaces) an `addresses` row; its `nodes` row must exist (foreign key). */
export function insertAddress(db: WritableDatabase, row: AddressRow): void {
  db.prepare(
    `insert or replace into "addresses"
     ("node", "type", "value", "source", "timestamp", "last_attempt", "last_success", "banned")
     values (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(row.node, row.type, row.value, row.source, row.timestamp, row.lastAttempt ?? null, row.lastSuccess ?? null, row.banned ? 1 : 0);
}

/** Inserts (or refreshes) a `routing` row; its `nodes` row must exist (foreign key). */
export function insertRouting(db: WritableDatabase, row: RoutingRow): void {
  db.prepare(`insert or replace into "routing" ("repo", "node", "timestamp") values (?, ?, ?)`).run(row.repo, row.node, row.timestamp);
}

/**
 * Stores a seeding policy row the way heartwood does (§8.2): seeding inserts `(id, scope)` and
 * lets `policy` default to allow; blocking inserts `(id, policy)` and leaves the default scope.
 */
export function insertSeedingPolicy(db: WritableDatabase, row: { rid: string; policy: SeedingPolicy }): void {
  if (row.policy.policy === 'allow') {
    db.prepare(`insert or replace into "seeding" ("id", "scope") values (?, ?)`).run(row.rid, row.policy.scope);
  } else {
    db.prepare(`insert or replace into "seeding" ("id", "policy") values (?, 'block')`).run(row.rid);
  }
}

/** Inserts (or replaces) a `following` row; alias defaults to `''`, policy to allow. */
export function insertFollowPolicy(db: WritableDatabase, row: FollowPolicyRow): void {
  db.prepare(`insert or replace into "following" ("id", "alias", "policy") values (?, ?, ?)`).run(row.nid, row.alias ?? '', row.policy ?? 'allow');
}
