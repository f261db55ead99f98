/**
 * Many small repositories written fast, for the listing and scale benchmarks: bare repository
 * files, the identity root change, one generated commit, loose refs and signed refs written with
 * the storage write side directly, and the SQLite rows in one transaction per database, because
 * `initRepository` spends most of its time per repository in git processes. Each repository is public,
 * delegated to the local node and seeded, as `rad init` leaves it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { didFromNid, ridDirectoryName, ridFromOid } from '@forge-httpd/identity';
import { cobTypeName, type Oid } from '@forge-httpd/storage';
import { insertRouting, insertSeedingPolicy, writeSignedRefsCommit } from '@forge-httpd/storage/write';
import { documentBlobOid, encodeIdentityDocument, type HomeContext, sampleCommits, writeGeneratedHistory, writeIdentityRoot } from '@forge-httpd/builder';

/**
 * Writes `count` repositories named `repo-00000`… (8 at a time) and records their seeding
 * policy and routing rows.
 * @returns their RIDs, in name order
 */
export async function writePlainRepositories(context: HomeContext, count: number, log: (line: string) => void = () => {}): Promise<string[]> {
  const rids: string[] = new Array<string>(count);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < count; i = next++) {
      rids[i] = await writeRepository(context, i);
      if ((i + 1) % 1000 === 0) log(`${i + 1}/${count} repositories`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  recordRows(context, rids);
  return rids;
}

/** One public repository `repo-<i>` as `rad init` leaves it; returns its RID. */
async function writeRepository(context: HomeContext, i: number): Promise<string> {
  const name = `repo-${String(i).padStart(5, '0')}`;
  const { keyPair, alias } = context.local;
  const documentJson = encodeIdentityDocument(context.flavour, {
    project: { name, description: `Benchmark repository ${i}`, defaultBranch: 'main' },
    delegates: [didFromNid(keyPair.nid)],
    threshold: 1,
  });
  const rid = ridFromOid(documentBlobOid(documentJson));
  const gitDir = path.join(context.home, 'storage', ridDirectoryName(rid));
  for (const dir of ['objects/info', 'objects/pack', 'refs/heads', 'refs/tags']) await mkdir(path.join(gitDir, dir), { recursive: true });
  await writeFile(path.join(gitDir, 'config'), '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = true\n');
  const time = 1_700_000_000 + i;
  const { root } = await writeIdentityRoot({ gitDir, flavour: context.flavour, keyPair, alias, time }, documentJson);
  const commits = sampleCommits({ project: name, authors: [{ name: 'Bench', email: 'bench@example.org' }], start: 1_600_000_000 + i, count: 1 });
  const head = (await writeGeneratedHistory({ gitDir, commits })).tip.oid;
  const cobRef = `refs/cobs/${cobTypeName(context.flavour, 'id')}/${root}`;
  const signed = new Map<string, Oid>([
    [cobRef, root],
    ['refs/heads/main', head],
    ['refs/rad/id', root],
    ['refs/rad/root', root],
  ]);
  const ns = `refs/namespaces/${keyPair.nid}/`;
  const refs: Array<[string, string]> = [
    [`${ns}${cobRef}`, root],
    [`${ns}refs/heads/main`, head],
    [`${ns}refs/rad/root`, root],
    ['refs/rad/id', root],
    ['refs/heads/main', head],
    [`${ns}refs/rad/sigrefs`, await writeSignedRefsCommit({ gitDir, keyPair: context.local.keyPair, refs: signed, parent: null, time })],
  ];
  for (const [ref, oid] of refs) await writeRef(gitDir, ref, `${oid}\n`);
  await writeRef(gitDir, `${ns}refs/rad/id`, `ref: ${ns}${cobRef}\n`);
  await writeFile(path.join(gitDir, 'HEAD'), 'ref: refs/heads/main\n');
  return rid;
}

async function writeRef(gitDir: string, name: string, content: string): Promise<void> {
  await mkdir(path.dirname(path.join(gitDir, name)), { recursive: true });
  await writeFile(path.join(gitDir, name), content);
}

/** Seeding policy and a local routing row per repository, in one transaction per database. */
function recordRows(context: HomeContext, rids: readonly string[]): void {
  const timestamp = context.clock.nowMillis();
  for (const [file, write] of [
    ['policies.db', (db: Database.Database, rid: string) => insertSeedingPolicy(db, { rid, policy: { policy: 'allow', scope: 'all' } })],
    ['node.db', (db: Database.Database, rid: string) => insertRouting(db, { repo: rid, node: context.local.keyPair.nid, timestamp })],
  ] as const) {
    const db = new Database(path.join(context.home, 'node', file));
    db.transaction(() => rids.forEach((rid) => write(db, rid)))();
    db.close();
  }
}
