import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { decodeOpenSshPrivateKey, readNodePublicKey } from '@forge-httpd/identity';
import { parseProfileConfig } from '@forge-httpd/storage';
import { createNodeHome, seedFromHex, type HomeContext } from '@forge-httpd/builder';

function hasSshKeygen(): boolean {
  try {
    execFileSync('which', ['ssh-keygen'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function schema(file: string): { tables: string[]; userVersion: number; sql: Map<string, string> } {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db.prepare("select name, sql from sqlite_master where type = 'table' order by name").all() as { name: string; sql: string }[];
    return {
      tables: rows.map((row) => row.name),
      userVersion: db.pragma('user_version', { simple: true }) as number,
      sql: new Map(rows.map((row) => [row.name, row.sql])),
    };
  } finally {
    db.close();
  }
}

describe('createNodeHome (rad auth)', () => {
  let dir: string;
  let context: HomeContext;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'forge-'));
    context = await createNodeHome({
      home: path.join(dir, 'home'),
      seed: seedFromHex('ff'.repeat(32)),
      alias: 'alice',
      flavour: 'radicle',
      agent: '/radicle:1.2.0/',
      profile: { seedingPolicy: { policy: 'allow', scope: 'followed' } },
    });
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes a private key file that parses back to the node key, mode 0600', async () => {
    const file = path.join(context.home, 'keys', 'radicle');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(decodeOpenSshPrivateKey(await readFile(file, 'utf8')).nid).toBe('z6MknSLrJoTcukLrE435hVNQT4JUhbvWLX4kUzqkEStBU8Vi');
    expect(Buffer.from(await readNodePublicKey(context.home))).toEqual(Buffer.from(context.local.keyPair.publicKey));
    if (!hasSshKeygen()) return;
    const derived = execFileSync('ssh-keygen', ['-y', '-f', file], { encoding: 'utf8' });
    expect(derived).toBe('ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHahWSBEpuT1ESZbynOmBNkLBSnR32Ar4woZqSV2YNH1 radicle\n');
  });

  it('writes config.json in the pretty format with the alias and seeding policy', async () => {
    const text = await readFile(path.join(context.home, 'config.json'), 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).toContain('"web": {\n    "pinned": {\n      "repositories": []\n    }\n  }');
    expect(text).toContain('"seedingPolicy": {\n      "default": "allow",\n      "scope": "followed"\n    }');
    expect(parseProfileConfig(text).alias).toBe('alice');
  });

  it('creates node.db at user_version 6 with every table and the local node row', () => {
    const file = path.join(context.home, 'node', 'node.db');
    const { tables, userVersion, sql } = schema(file);
    expect(tables).toEqual(['addresses', 'announcements', 'ips', 'nodes', 'refs', 'repo-sync-status', 'routing']);
    expect(userVersion).toBe(6);
    expect(sql.get('nodes')).toMatch(
      /"penalty" integer not null default 0, "version" integer not null default 1, "agent" text not null default "\/radicle\/"\) strict$/,
    );
    const db = new Database(file, { readonly: true });
    const row = db.prepare('select alias, agent, features from nodes where id = ?').get(context.local.keyPair.nid);
    db.close();
    expect(row).toEqual({ alias: 'alice', agent: '/radicle:1.2.0/', features: 1 });
  });

  it.each([
    ['node/policies.db', ['following', 'seeding'], 0],
    ['node/notifications.db', ['repository-notification-interests', 'repository-notifications'], 0],
    ['cobs/cache.db', ['issues', 'patches'], 2],
  ])('creates %s with its tables', (file, tables, userVersion) => {
    const found = schema(path.join(context.home, file));
    expect(found.tables).toEqual(tables);
    expect(found.userVersion).toBe(userVersion);
  });
});
