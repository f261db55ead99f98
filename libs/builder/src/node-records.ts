import path from 'node:path';
import Database from 'better-sqlite3';
import type { Rid } from '@forge-httpd/identity';
import { type SeedingPolicy } from '@forge-httpd/storage';
import {
  insertAddress,
  insertFollowPolicy,
  insertNode,
  insertRouting,
  insertSeedingPolicy,
  type AddressRow,
  type WritableDatabase,
} from '@forge-httpd/storage/write';
import type { HomeContext } from './node-home.js';

// The databases already exist (createNodeHome); reopening with the create functions would
// re-run node.db's ALTER TABLE migrations, so rows are written through plain connections.
function withDatabase<T>(file: string, write: (db: WritableDatabase) => T): T {
  const db = new Database(file);
  try {
    db.pragma('foreign_keys = ON');
    return db.transaction(() => write(db))();
  } finally {
    db.close();
  }
}

function nodeDbPath(context: HomeContext): string {
  return path.join(context.home, 'node', 'node.db');
}

function policiesDbPath(context: HomeContext): string {
  return path.join(context.home, 'node', 'policies.db');
}

/** A node announced to the local node (a `nodes` row, §8.1). */
export interface KnownNode {
  readonly nid: string;
  readonly alias: string;
  readonly agent?: string;
  /** Seed feature flag (default true). */
  readonly seed?: boolean;
  readonly addresses?: readonly Omit<AddressRow, 'node' | 'timestamp'>[];
}

/**
 * Records a node in node.db (`nodes` row with its announced alias and agent, plus addresses),
 * as gossip would. Replaces an existing row.
 */
export function recordKnownNode(context: HomeContext, node: KnownNode): void {
  const timestamp = context.clock.nowMillis();
  withDatabase(nodeDbPath(context), (db) => {
    insertNode(db, { id: node.nid, alias: node.alias, timestamp, features: node.seed === false ? 0 : 1, agent: node.agent });
    for (const address of node.addresses ?? []) insertAddress(db, { ...address, node: node.nid, timestamp });
  });
}

/**
 * Records that `nid` seeds `rid` (a `routing` row, §8.1); adds a bare `nodes` row first when the
 * node is unknown (the foreign key requires one).
 */
export function recordRouting(context: HomeContext, entry: { rid: Rid; nid: string }): void {
  const timestamp = context.clock.nowMillis();
  withDatabase(nodeDbPath(context), (db) => {
    const known = db.prepare('select 1 from "nodes" where "id" = ?').get(entry.nid) !== undefined;
    if (!known) insertNode(db, { id: entry.nid, alias: '', timestamp });
    insertRouting(db, { repo: entry.rid, node: entry.nid, timestamp });
  });
}

/** Deletes a `routing` row (the node no longer announces the repository). */
export function removeRouting(context: HomeContext, entry: { rid: Rid; nid: string }): void {
  withDatabase(nodeDbPath(context), (db) => {
    db.prepare('delete from "routing" where "repo" = ? and "node" = ?').run(entry.rid, entry.nid);
  });
}

/** Stores a repository seeding policy in policies.db like `rad seed` / `rad block` (§8.2). */
export function recordSeedingPolicy(context: HomeContext, entry: { rid: Rid; policy: SeedingPolicy }): void {
  withDatabase(policiesDbPath(context), (db) => insertSeedingPolicy(db, entry));
}

/** Stores a follow policy (with the local alias for the node) like `rad follow` (§8.2). */
export function recordFollow(context: HomeContext, entry: { nid: string; alias?: string; policy?: 'allow' | 'block' }): void {
  withDatabase(policiesDbPath(context), (db) => insertFollowPolicy(db, entry));
}
