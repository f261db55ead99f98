/**
 * Reads one COB change commit from git into a {@link Change} (docs/node-home.md §6.1–6.4),
 * returning null for what the node cannot load (it then skips the change and what is only
 * reachable through it).
 */
import { isUtf8 } from 'node:buffer';
import { BoundedCache } from '@forge-httpd/bounded-cache';
import { nidFromPublicKey, parseSshSignatureArmor, verifySignatureOffThread } from '@forge-httpd/identity';
import type { GitCommit, GitRepository, Oid, ReadOptions, TreeEntry } from '@forge-httpd/storage';
import type { Change } from '../change.js';
import { parseChangeTrailers } from './commit-trailers.js';

const SSH_ARMOR = '-----BEGIN SSH SIGNATURE-----';
/** Changes are loaded by the thousand: git's process reads them on another core. */
const BULK: ReadOptions = { bulk: true };

/**
 * Loads a change commit.
 * @param git - the repository
 * @param id - the commit id
 * @param manifests - decoded manifests shared by the loads of every repository
 * @param reads - how the objects are read (default: as one of many, by git's process; a writer
 *   loading its one new change reads in process rather than start one)
 * @returns the change, or null when the commit is missing, unsigned, doubly signed, has more
 *   than one resource, a malformed trailer, no valid manifest or no action blob
 */
export async function loadChange(git: GitRepository, id: Oid, manifests: ManifestCache, reads: ReadOptions = BULK): Promise<Change | null> {
  const read = await readChangeCommit(git, id, reads);
  if (read === null) return null;
  const { commit, trailers, signature, signatureValid, tree } = read;
  const [typeName, actions] = await Promise.all([manifests.typeNameOf(git, tree, reads), readActions(git, tree, reads)]);
  if (typeName === null || actions.length === 0) return null;
  const resource = trailers.resources[0] ?? null;
  const excluded = new Set<string>([...trailers.related, ...(resource === null ? [] : [resource])]);
  return {
    id,
    tree: commit.tree,
    parents: commit.parents.filter((parent) => !excluded.has(parent)),
    related: trailers.related,
    resource,
    author: nidFromPublicKey(signature.publicKey),
    timestamp: commit.committer.time,
    typeName,
    actions,
    signatureValid: await signatureValid,
  };
}

/** A change commit with its trailers, its one signature (checked off this thread) and its tree. */
export interface ChangeCommit {
  readonly commit: GitCommit;
  readonly trailers: NonNullable<ReturnType<typeof parseChangeTrailers>>;
  readonly signature: { publicKey: Uint8Array; signature: Uint8Array };
  /** Resolves with the signature's verdict (never rejects). */
  readonly signatureValid: Promise<boolean>;
  readonly tree: TreeEntry[];
}

/**
 * Reads what every change load starts with; null when the commit or its tree is missing, it is
 * unsigned or doubly signed, its trailers are malformed or it names more than one resource.
 */
export async function readChangeCommit(git: GitRepository, id: Oid, reads: ReadOptions = BULK): Promise<ChangeCommit | null> {
  const commit = await git.readCommit(id, reads);
  if (commit === null) return null;
  const trailers = parseChangeTrailers(commit.message);
  const signature = changeSignature(commit);
  if (trailers === null || signature === null || trailers.resources.length > 1) return null;
  // Checked on a worker thread while the tree and blobs are read (never rejects).
  const signatureValid = verifySignatureOffThread(signature.publicKey, Buffer.from(commit.tree, 'hex'), signature.signature);
  const tree = await git.readTree(commit.tree, reads);
  if (tree === null) return null;
  return { commit, trailers, signature, signatureValid, tree };
}

/** The single SSH signature of a commit (PGP ones are ignored); null when none, several or malformed. */
function changeSignature(commit: GitCommit): { publicKey: Uint8Array; signature: Uint8Array } | null {
  const armors = commit.headers.filter((h) => h.name === 'gpgsig' && h.value.startsWith(SSH_ARMOR));
  if (armors.length !== 1) return null;
  try {
    return parseSshSignatureArmor((armors[0] as { value: string }).value);
  } catch {
    return null;
  }
}

/**
 * Decoded manifests by blob id. Every change of a type shares one manifest blob, in every
 * repository, so one cache serves all the loads of a process (the server keeps one).
 */
export class ManifestCache {
  private readonly manifests = new BoundedCache<Oid, string | null>({ maxEntries: 1000 });

  /** Manifest `typeName` (or legacy `typename`) of a change's tree; null when missing or invalid. */
  async typeNameOf(git: GitRepository, tree: readonly TreeEntry[], reads: ReadOptions = BULK): Promise<string | null> {
    const entry = tree.find((e) => e.name === 'manifest');
    if (entry === undefined || entry.kind !== 'blob') return null;
    return this.manifests.getOrLoad(entry.oid, async () => parseManifest(decodeJson(await git.readBlob(entry.oid, reads))));
  }
}

function parseManifest(parsed: unknown): string | null {
  return parseManifestFields(parsed)?.typeName ?? null;
}

/** `typeName` (or legacy `typename`) and `version` (default 1) of a decoded manifest; null when invalid. */
export function parseManifestFields(parsed: unknown): { typeName: string; version: number } | null {
  if (typeof parsed !== 'object' || parsed === null) return null;
  const manifest = parsed as Record<string, unknown>;
  const typeName = manifest['typeName'] ?? manifest['typename'];
  const version = manifest['version'] ?? 1;
  if (typeof typeName !== 'string' || !Number.isSafeInteger(version) || (version as number) < 1) return null;
  return { typeName, version: version as number };
}

/** Action blobs: entries named by an `i8`, in numeric order, decoded as JSON. */
async function readActions(git: GitRepository, tree: readonly TreeEntry[], reads: ReadOptions): Promise<unknown[]> {
  return Promise.all(actionBlobs(tree).map(async (oid) => decodeJson(await git.readBlob(oid, reads))));
}

/** The action blobs of a change tree: entries named by an `i8`, in numeric order. */
export function actionBlobs(tree: readonly TreeEntry[]): Oid[] {
  const byIndex = new Map<number, Oid>();
  for (const entry of tree) {
    if (entry.kind !== 'blob' || !/^[+-]?[0-9]+$/.test(entry.name)) continue;
    const index = Number(entry.name);
    if (index >= -128 && index <= 127) byIndex.set(index, entry.oid);
  }
  return [...byIndex.entries()].sort(([a], [b]) => a - b).map(([, oid]) => oid);
}

/** JSON of a blob; undefined when missing, not UTF-8 or not JSON (the action then rejects). */
export function decodeJson(bytes: Buffer | null): unknown {
  if (bytes === null || !isUtf8(bytes)) return undefined;
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
