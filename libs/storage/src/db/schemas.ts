/**
 * DDL of the node-home SQLite databases (docs/node-home.md §8). The statements are applied in
 * heartwood's migration order, so `ALTER TABLE … ADD COLUMN` appends the later columns to the
 * stored `sqlite_master.sql` text exactly where heartwood's do (e.g. `nodes` ends with
 * `"penalty" …, "version" …, "agent" … default "/radicle/") strict`).
 */

/** node.db, migrations 1–6 (§8.1). */
export const NODE_DB_MIGRATIONS: readonly string[] = [
  `create table if not exists "nodes" (
  "id" text primary key not null,
  "features" integer not null,
  "alias" text not null,
  "pow" integer default 0,
  "timestamp" integer not null,
  "banned" integer default false
) strict`,
  `create table if not exists "addresses" (
  "node" text not null references "nodes" ("id") on delete cascade,
  "type" text not null,
  "value" text not null,
  "source" text not null,
  "timestamp" integer not null,
  "last_attempt" integer default null,
  "last_success" integer default null,
  "banned" integer default false,
  unique ("node", "type", "value")
) strict`,
  `create table if not exists "routing" (
  "repo" text not null,
  "node" text not null references "nodes" ("id") on delete cascade,
  "timestamp" integer not null,
  primary key ("repo", "node")
)`,
  `create table if not exists "announcements" (
  "node" text not null,
  "repo" text not null,
  "type" text not null,
  "message" blob not null,
  "signature" blob not null,
  "timestamp" integer not null,
  unique ("node", "repo", "type")
) strict`,
  `create table if not exists "repo-sync-status" (
  "repo" text not null,
  "node" text not null references "nodes" ("id") on delete cascade,
  "head" text not null,
  "timestamp" integer not null,
  unique ("repo", "node")
) strict`,
  // Migration 2.
  `alter table "nodes" add column "penalty" integer not null default 0`,
  // Migration 3: the refs cache.
  `create table if not exists "refs" (
  "repo" text not null,
  "namespace" text not null,
  "ref" text not null,
  "oid" text not null,
  "timestamp" integer not null,
  unique ("repo", "namespace", "ref")
) strict`,
  // Migration 4.
  `create table if not exists "ips" (
  "ip" text primary key not null,
  "node" text references "nodes" ("id") on delete cascade,
  "last_attempt" integer not null,
  "banned" integer default false
) strict`,
  // Migration 5.
  `alter table "announcements" add column "relay" integer default -1`,
  // Migration 6. The double-quoted default is heartwood's quirk (§12.6); the SQLite bundled
  // with better-sqlite3 (built with DQS=0) still accepts it in a DEFAULT clause and stores the
  // string '/radicle/'.
  `alter table "nodes" add column "version" integer not null default 1`,
  `alter table "nodes" add column "agent" text not null default "/radicle/"`,
];

/** node.db `user_version` after the migrations above. */
export const NODE_DB_VERSION = 6;

/** policies.db (§8.2); heartwood runs it on every open, hence `if not exists`. */
export const POLICIES_DB_SCHEMA: readonly string[] = [
  `create table if not exists "following" (
  "id" text primary key not null,
  "alias" text default '',
  "policy" text default 'allow'
) strict`,
  `create table if not exists "seeding" (
  "id" text primary key not null,
  "scope" text default 'followed',
  "policy" text default 'allow'
) strict`,
];

/** notifications.db (§8.3). */
export const NOTIFICATIONS_DB_SCHEMA: readonly string[] = [
  `create table if not exists "repository-notifications" (
  "repo" text not null,
  "ref" text not null,
  "status" integer default null,
  "old" text,
  "new" text,
  "timestamp" integer not null,
  unique ("repo", "ref")
) strict`,
  `create table if not exists "repository-notification-interests" (
  "repo" text not null,
  "glob" text not null,
  "interest" text not null,
  unique ("repo", "glob", "interest")
) strict`,
];

/** cobs/cache.db (§8.4). */
export const COB_CACHE_DB_SCHEMA: readonly string[] = [
  `create table if not exists "issues" (
  "id" text primary key not null,
  "repo" text not null,
  "issue" text not null
) strict`,
  `create table if not exists "patches" (
  "id" text primary key not null,
  "repo" text not null,
  "patch" text not null
) strict`,
];

/** cobs/cache.db `user_version` (two migrations). */
export const COB_CACHE_DB_VERSION = 2;
