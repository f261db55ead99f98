/**
 * The signed change log of any collaborative object, evaluated or not (external types,
 * releases): every change reachable from the object's tips, in a topological order, with its
 * manifest, actions and signature as stored (docs/node-home.md §6).
 */
import { isUtf8 } from 'node:buffer';
import { nidFromPublicKey, type Nid, TooLargeError } from '@forge-httpd/identity';
import type { GitRepository, Oid } from '@forge-httpd/storage';
import { compareOids } from '../dag/change-graph.js';
import { readCobRefIndex } from './cob-ref-index.js';
import { actionBlobs, decodeJson, parseManifestFields, readChangeCommit } from './load-change.js';

const BULK = { bulk: true } as const;

/** One action as stored: its JSON, or the bytes of a blob that is not JSON. */
export type LoggedAction = { readonly json: unknown } | { readonly bytes: Buffer };

/** One change of a log, as stored. */
export interface LoggedChange {
  readonly id: Oid;
  /** History parents: commit parents minus the resource and related oids. */
  readonly parents: readonly Oid[];
  /** The signer. */
  readonly author: Nid;
  /** Committer time in seconds. */
  readonly timestamp: number;
  readonly manifest: { readonly typeName: string; readonly version: number };
  readonly actions: readonly LoggedAction[];
  /** The SSH signature's raw ed25519 signature bytes. */
  readonly signature: Uint8Array;
  /** Whether that signature verifies against the tree oid bytes. */
  readonly signatureValid: boolean;
  /** Bytes of the action blobs. */
  readonly actionBytes: number;
}

/** Bounds of {@link loadChangeLog}. */
export interface ChangeLogLimits {
  /** Most changes walked (any signature); one more fails with TooLargeError. */
  readonly maxChanges: number;
  /** Most action bytes read over the walk; past it TooLargeError. */
  readonly maxActionBytes: number;
}

/**
 * The changes of one object whose signature verifies, parents first, ties by id (ascending).
 * The walk starts at `tips` and follows history parents through every loadable change of
 * `typeName` (one with a bad signature too: only it is left out of the log); a commit that is
 * not a loadable change of that type ends its branch of the walk.
 * @throws TooLargeError past `limits`
 */
export async function loadChangeLog(git: GitRepository, args: { typeName: string; tips: readonly Oid[]; limits: ChangeLogLimits }): Promise<LoggedChange[]> {
  const { typeName, limits } = args;
  const loaded = new Map<Oid, LoggedChange>();
  const seen = new Set<Oid>();
  let actionBytes = 0;
  let frontier = [...new Set(args.tips)];
  while (frontier.length > 0) {
    frontier.forEach((id) => seen.add(id));
    if (seen.size > limits.maxChanges) throw new TooLargeError(`more than ${limits.maxChanges} changes`);
    const changes = await Promise.all(frontier.map((id) => loadLoggedChange(git, id)));
    const next: Oid[] = [];
    for (const change of changes) {
      if (change === null || change.manifest.typeName !== typeName) continue;
      actionBytes += change.actionBytes;
      if (actionBytes > limits.maxActionBytes) throw new TooLargeError(`more than ${limits.maxActionBytes} bytes of actions`);
      loaded.set(change.id, change);
      for (const parent of change.parents) if (!seen.has(parent)) next.push(parent);
    }
    frontier = [...new Set(next)];
  }
  return topologicalOrder(loaded).filter((change) => change.signatureValid);
}

/** Parents (within the set) before children; among changes ready at once, the lowest id first. */
function topologicalOrder(changes: ReadonlyMap<Oid, LoggedChange>): LoggedChange[] {
  const waiting = new Map<Oid, number>();
  const children = new Map<Oid, Oid[]>();
  for (const change of changes.values()) {
    const parents = new Set(change.parents.filter((parent) => changes.has(parent)));
    waiting.set(change.id, parents.size);
    for (const parent of parents) children.set(parent, [...(children.get(parent) ?? []), change.id]);
  }
  const ready = [...waiting].filter(([, count]) => count === 0).map(([id]) => id);
  const ordered: LoggedChange[] = [];
  while (ready.length > 0) {
    ready.sort(compareOids);
    const id = ready.shift() as Oid;
    ordered.push(changes.get(id) as LoggedChange);
    for (const child of children.get(id) ?? []) {
      const left = (waiting.get(child) ?? 0) - 1;
      waiting.set(child, left);
      if (left === 0) ready.push(child);
    }
  }
  return ordered;
}

/** A change commit read whole; null when it is not a loadable change (as the node would skip it). */
async function loadLoggedChange(git: GitRepository, id: Oid): Promise<LoggedChange | null> {
  const read = await readChangeCommit(git, id);
  if (read === null) return null;
  const { commit, trailers, signature, signatureValid, tree } = read;
  const manifestEntry = tree.find((entry) => entry.name === 'manifest' && entry.kind === 'blob');
  if (manifestEntry === undefined) return null;
  const [manifestBytes, ...blobs] = await Promise.all([git.readBlob(manifestEntry.oid, BULK), ...actionBlobs(tree).map((oid) => git.readBlob(oid, BULK))]);
  const manifest = parseManifestFields(decodeJson(manifestBytes ?? null));
  if (manifest === null || blobs.length === 0 || blobs.some((blob) => blob === null)) return null;
  const excluded = new Set<string>([...trailers.related, ...trailers.resources]);
  return {
    id,
    parents: commit.parents.filter((parent) => !excluded.has(parent)),
    author: nidFromPublicKey(signature.publicKey),
    timestamp: commit.committer.time,
    manifest,
    actions: (blobs as Buffer[]).map(toAction),
    signature: signature.signature,
    signatureValid: await signatureValid,
    actionBytes: (blobs as Buffer[]).reduce((sum, blob) => sum + blob.length, 0),
  };
}

function toAction(bytes: Buffer): LoggedAction {
  const json = isUtf8(bytes) ? decodeJson(bytes) : undefined;
  return json === undefined ? { bytes } : { json };
}

/**
 * The objects of a type and their tips (every namespace's `refs/cobs/{typeName}/{id}`), by id.
 * @param typeName - a type name already validated by the caller
 */
export async function objectTipsOfType(git: GitRepository, typeName: string): Promise<ReadonlyMap<Oid, readonly Oid[]>> {
  const index = await readCobRefIndex(git);
  const objects = index.objects.get(typeName) ?? new Map<Oid, readonly Oid[]>();
  return new Map([...objects].sort(([a], [b]) => compareOids(a, b)));
}

const TYPE_NAME_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
/** Longest COB type name, in characters. */
const MAX_TYPE_NAME_LENGTH = 255;

/**
 * Whether `text` is a COB type name: a reverse domain name of at least two labels, each 1–63
 * letters, digits or inner `-`, at most 255 characters (so it never names a path: no `/`, no
 * `..`, no empty label).
 */
export function isCobTypeName(text: string): boolean {
  if (text.length > MAX_TYPE_NAME_LENGTH) return false;
  const labels = text.split('.');
  return labels.length >= 2 && labels.every((label) => TYPE_NAME_LABEL.test(label));
}
