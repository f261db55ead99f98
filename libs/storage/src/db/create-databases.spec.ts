import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { createCobCacheDatabase, createNodeDatabase, createNotificationsDatabase, createPoliciesDatabase } from './create-databases.js';

// The DDL of docs/node-home.md §8, as printed there (comments dropped).
const SPEC_DDL: Record<string, string[]> = {
  node: [
    `CREATE TABLE "nodes" ("id" text primary key not null, "features" integer not null,
      "alias" text not null, "pow" integer default 0, "timestamp" integer not null,
      "banned" integer default false, "penalty" integer not null default 0,
      "version" integer not null default 1, "agent" text not null default "/radicle/") strict`,
    `CREATE TABLE "addresses" ("node" text not null references "nodes"("id") on delete cascade,
      "type" text not null, "value" text not null, "source" text not null,
      "timestamp" integer not null, "last_attempt" integer default null,
      "last_success" integer default null, "banned" integer default false,
      unique ("node","type","value")) strict`,
    `CREATE TABLE "routing" ("repo" text not null,
      "node" text not null references "nodes"("id") on delete cascade,
      "timestamp" integer not null, primary key ("repo","node"))`,
    `CREATE TABLE "announcements" ("node" text not null, "repo" text not null,
      "type" text not null, "message" blob not null, "signature" blob not null,
      "timestamp" integer not null, "relay" integer default -1,
      unique ("node","repo","type")) strict`,
    `CREATE TABLE "repo-sync-status" ("repo" text not null,
      "node" text not null references "nodes"("id") on delete cascade,
      "head" text not null, "timestamp" integer not null, unique ("repo","node")) strict`,
    `CREATE TABLE "refs" ("repo" text not null, "namespace" text not null, "ref" text not null,
      "oid" text not null, "timestamp" integer not null, unique ("repo","namespace","ref")) strict`,
    `CREATE TABLE "ips" ("ip" text primary key not null,
      "node" text references "nodes"("id") on delete cascade,
      "last_attempt" integer not null, "banned" integer default false) strict`,
  ],
  policies: [
    `CREATE TABLE "following" ("id" text primary key not null,
      "alias" text default '', "policy" text default 'allow') strict`,
    `CREATE TABLE "seeding" ("id" text primary key not null,
      "scope" text default 'followed', "policy" text default 'allow') strict`,
  ],
  notifications: [
    `CREATE TABLE "repository-notifications" ("repo" text not null, "ref" text not null,
      "status" integer default null, "old" text, "new" text, "timestamp" integer not null,
      unique ("repo","ref")) strict`,
    `CREATE TABLE "repository-notification-interests" ("repo" text not null,
      "glob" text not null, "interest" text not null, unique ("repo","glob","interest")) strict`,
  ],
  cache: [
    `CREATE TABLE "issues" ("id" text primary key not null, "repo" text not null,
      "issue" text not null) strict`,
    `CREATE TABLE "patches" ("id" text primary key not null, "repo" text not null,
      "patch" text not null) strict`,
  ],
};

const CREATORS = {
  node: createNodeDatabase,
  policies: createPoliciesDatabase,
  notifications: createNotificationsDatabase,
  cache: createCobCacheDatabase,
};

function normalize(sql: string): string {
  return sql
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/\s*([(),])\s*/g, '$1')
    .trim();
}

function tableSql(db: Database.Database): string[] {
  const rows = db.prepare(`SELECT sql FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as { sql: string }[];
  return rows.map((row) => normalize(row.sql));
}

describe('node-home database creation', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'forge-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it.each(Object.keys(CREATORS) as (keyof typeof CREATORS)[])('creates the %s database with exactly the tables of docs/node-home.md §8', (kind) => {
    const db = CREATORS[kind](path.join(dir, kind, `${kind}.db`));
    const expected = new Database(':memory:');
    for (const ddl of SPEC_DDL[kind] ?? []) expected.exec(ddl);
    expect(tableSql(db)).toEqual(tableSql(expected));
    db.close();
  });

  it('stores node.db in WAL mode at user_version 6 with the /radicle/ agent default', () => {
    const file = path.join(dir, 'node2.db');
    const db = createNodeDatabase(file);
    db.prepare(`INSERT INTO nodes (id, features, alias, timestamp) VALUES ('z6Mk', 1, 'a', 1)`).run();
    db.close();
    const reopened = new Database(file, { readonly: true });
    expect(reopened.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(reopened.pragma('user_version', { simple: true })).toBe(6);
    expect(reopened.prepare('SELECT agent, version, penalty FROM nodes').get()).toEqual({
      agent: '/radicle/',
      version: 1,
      penalty: 0,
    });
    reopened.close();
  });

  it('stores cache.db at user_version 2', () => {
    const db = createCobCacheDatabase(path.join(dir, 'cache2.db'));
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    db.close();
  });
});
