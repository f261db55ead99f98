/**
 * Test fixtures (not a test suite): real node homes and storage repositories on disk, written
 * with this package's write side. Identity commits here are plain commits holding
 * `embeds/radicle.json`: the readers under test never evaluate the identity COB.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { canonicalJson, didFromNid, type KeyPair, keyPairFromSeed, type Rid, ridDirectoryName, ridFromOid, writeKeyFiles } from '@forge-httpd/identity';
import { hashObject } from '../git/objects/hash-object.js';
import { initBareRepository } from '../git/write/init-bare-repository.js';
import type { Oid } from '../git/objects/oid.js';
import { serializeCommit } from '../git/format/serialize-commit.js';
import { serializeTree, type TreeEntryInput } from '../git/format/serialize-tree.js';
import { updateRefs } from '../git/write/update-refs.js';
import { writeObject } from '../git/write/write-object.js';
import { formatProfileConfig, type ProfileConfigOptions } from '../config/format-profile-config.js';

/** A deterministic key pair from a one-byte seed pattern. */
export function testKeyPair(byte: number): KeyPair {
  return keyPairFromSeed(new Uint8Array(32).fill(byte));
}

/** Writes keys and config.json of a node home; databases are left to the test. */
export async function writeTestHome(options: { home: string; keyPair: KeyPair; config?: Partial<ProfileConfigOptions> }): Promise<void> {
  await mkdir(path.join(options.home, 'storage'), { recursive: true });
  await mkdir(path.join(options.home, 'node'), { recursive: true });
  await writeKeyFiles(options.home, options.keyPair);
  await writeFile(path.join(options.home, 'config.json'), formatProfileConfig({ alias: 'alice', ...options.config }));
}

/** Writes a commit whose tree holds `files` (flat names → text). */
export async function writeTestCommit(options: {
  gitDir: string;
  files: Record<string, string>;
  parents?: Oid[];
  time: number;
  message?: string;
}): Promise<Oid> {
  const { gitDir } = options;
  const tree = await writeTree(gitDir, options.files);
  const person = { name: 'tester', email: 'tester@example.com', time: options.time, offset: '+0000' };
  const bytes = serializeCommit({
    tree,
    parents: options.parents ?? [],
    author: person,
    committer: person,
    message: `${options.message ?? 'commit'}\n`,
  });
  return writeObject(gitDir, 'commit', bytes);
}

async function writeTree(gitDir: string, files: Record<string, string>): Promise<Oid> {
  const byDir = new Map<string, Record<string, string>>();
  const entries: TreeEntryInput[] = [];
  for (const [name, text] of Object.entries(files)) {
    const slash = name.indexOf('/');
    if (slash < 0) {
      entries.push({ name, mode: '100644', oid: await writeObject(gitDir, 'blob', Buffer.from(text)) });
      continue;
    }
    const dir = byDir.get(name.slice(0, slash)) ?? {};
    dir[name.slice(slash + 1)] = text;
    byDir.set(name.slice(0, slash), dir);
  }
  for (const [name, dirFiles] of byDir) {
    entries.push({ name, mode: '40000', oid: await writeTree(gitDir, dirFiles) });
  }
  return writeObject(gitDir, 'tree', serializeTree(entries));
}

/** An identity document as the fixture writes it (canonical JSON of these fields). */
export interface TestDocument {
  payload: Record<string, unknown>;
  delegates: KeyPair[];
  threshold?: number;
  visibility?: { type: 'private'; allow?: string[] };
}

/** Canonical document text; `version` and a public visibility are omitted as heartwood does. */
export function documentText(doc: TestDocument): string {
  return canonicalJson({
    payload: doc.payload,
    delegates: doc.delegates.map((keyPair) => didFromNid(keyPair.nid)),
    threshold: doc.threshold ?? 1,
    visibility: doc.visibility,
  });
}

/** A storage repository created by {@link createTestRepository}. */
export interface TestRepository {
  rid: Rid;
  gitDir: string;
  identityCommit: Oid;
}

/**
 * Creates `storage/<rid>` with the document's identity commit at top-level `refs/rad/id` and
 * under each delegate's namespace (`refs/rad/id`, `refs/rad/root`).
 */
export async function createTestRepository(options: { home: string; doc: TestDocument; time: number }): Promise<TestRepository> {
  const text = documentText(options.doc);
  const rid = ridFromOid(hashObject('blob', Buffer.from(text)));
  const gitDir = path.join(options.home, 'storage', ridDirectoryName(rid));
  await initBareRepository(gitDir);
  const identityCommit = await writeTestCommit({
    gitDir,
    files: { 'embeds/radicle.json': text },
    time: options.time,
    message: 'Initialize identity',
  });
  const updates = [{ name: 'refs/rad/id', oid: identityCommit }];
  for (const nid of new Set(options.doc.delegates.map((delegate) => delegate.nid))) {
    updates.push({ name: `refs/namespaces/${nid}/refs/rad/id`, oid: identityCommit });
    updates.push({ name: `refs/namespaces/${nid}/refs/rad/root`, oid: identityCommit });
  }
  await updateRefs(gitDir, updates);
  return { rid, gitDir, identityCommit };
}

/** A radicle/forge project payload map for `flavour`. */
export function projectPayload(flavour: string, project: { name: string; defaultBranch?: string; description?: string }): Record<string, unknown> {
  return {
    [`xyz.${flavour}.project`]: {
      name: project.name,
      description: project.description ?? '',
      defaultBranch: project.defaultBranch ?? 'main',
    },
  };
}
