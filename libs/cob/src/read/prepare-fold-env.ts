/**
 * Resolves, before a fold runs, every repository fact its changes may ask for (documents at
 * resources, merge reachability, job commits), so reducers stay synchronous and pure.
 * Facts about immutable objects are cached across evaluations; the refs a result depends on
 * are reported so a cached result can be invalidated when they move.
 */
import { RejectedError } from '@forge-httpd/identity';
import { type GitRepository, IDENTITY_DOC_PATH, isOid, type Oid } from '@forge-httpd/storage';
import type { Change } from '../change.js';
import type { FoldEnv } from '../model/fold-env.js';
import { type IdentityDoc, parseIdentityDoc, projectDefaultBranch } from '../model/identity-doc.js';
import { parseMergeTarget } from '../patch/patch-action.js';

/** A document at a commit, or why it could not be loaded. */
export type DocResult = { readonly doc: IdentityDoc; readonly blob: Oid } | { readonly error: string };

/** Caches of immutable facts, shared by every evaluation of a repository. */
export interface FactCaches {
  readonly docs: Map<Oid, Promise<DocResult>>;
  /** `commit head` → whether commit is head or its ancestor. */
  readonly ancestry: Map<string, Promise<boolean>>;
  readonly commits: Map<Oid, Promise<boolean>>;
}

/** Creates empty fact caches. */
export function newFactCaches(): FactCaches {
  return { docs: new Map(), ancestry: new Map(), commits: new Map() };
}

/** Resolves a ref a fold consults (merge branches): its oid, or null when absent. */
export type RefLookup = (name: string) => Promise<Oid | null>;

/**
 * Prepares the environment of one fold.
 * @returns the environment and the refs (name → oid or null when absent) the result depends on
 */
export async function prepareFoldEnv(args: {
  git: GitRepository;
  changes: readonly Change[];
  refs: RefLookup;
  caches: FactCaches;
  projectPayloadId: string;
}): Promise<{ env: FoldEnv; deps: Map<string, Oid | null> }> {
  const { git, changes, caches } = args;
  const docs = new Map<Oid, DocResult>();
  const resources = [...new Set(changes.map((c) => c.resource).filter((r): r is Oid => r !== null))];
  await Promise.all(resources.map(async (r) => docs.set(r, await docAt({ git, commit: r, caches }))));
  const deps = new Map<string, Oid | null>();
  const onBranch = new Map<string, boolean>();
  const commits = new Map<Oid, boolean>();
  // A merge counts on the patch's target branch, which an edit may have set to a named branch:
  // reachability is resolved on the default branch and on every branch a change names.
  const targets = new Set(changes.flatMap((change) => change.actions.map(targetBranch).filter((b): b is string => b !== null)));
  await Promise.all(
    changes.flatMap((change) =>
      change.actions.map(async (action) => {
        const merge = mergeCommit(action);
        const request = jobRequest(action);
        if (merge !== null) await resolveMerge({ ...args, change, commit: merge, docs, deps, onBranch, targets });
        if (request !== null) commits.set(request, await hasCommit({ git, oid: request, caches }));
      }),
    ),
  );
  const env: FoldEnv = {
    projectPayloadId: args.projectPayloadId,
    docAt: (resource) => {
      const result = resource === null ? undefined : docs.get(resource);
      if (result === undefined) throw new RejectedError('identity document missing');
      if ('error' in result) throw new RejectedError(result.error);
      return result.doc;
    },
    isOnBranch: ({ nid, branch, commit }) => onBranch.get(`${nid} ${branch} ${commit}`) ?? false,
    hasCommit: (oid) => commits.get(oid) ?? false,
  };
  return { env, deps };
}

async function resolveMerge(args: {
  git: GitRepository;
  change: Change;
  commit: Oid;
  refs: RefLookup;
  caches: FactCaches;
  projectPayloadId: string;
  docs: Map<Oid, DocResult>;
  deps: Map<string, Oid | null>;
  onBranch: Map<string, boolean>;
  targets: ReadonlySet<string>;
}): Promise<void> {
  const { change, docs } = args;
  const result = change.resource === null ? undefined : docs.get(change.resource);
  if (result === undefined || 'error' in result) return;
  const branches = new Set(args.targets);
  try {
    branches.add(`refs/heads/${projectDefaultBranch(result.doc, args.projectPayloadId)}`);
  } catch {
    // No default branch: only named targets can be merged into.
  }
  await Promise.all([...branches].map((branch) => resolveReachability({ ...args, branch })));
}

async function resolveReachability(args: {
  git: GitRepository;
  change: Change;
  commit: Oid;
  branch: string;
  refs: RefLookup;
  caches: FactCaches;
  deps: Map<string, Oid | null>;
  onBranch: Map<string, boolean>;
}): Promise<void> {
  const { change, commit, branch } = args;
  const name = `refs/namespaces/${change.author}/${branch}`;
  const head = await args.refs(name);
  args.deps.set(name, head);
  const reachable = head !== null && (head === commit || (await isAncestor({ git: args.git, commit, head, caches: args.caches })));
  args.onBranch.set(`${change.author} ${branch} ${commit}`, reachable);
}

/**
 * Reads and parses the document at a commit (cached).
 * @returns the document with its blob id, or the reason it is unusable
 */
function docAt({ git, commit, caches }: { git: GitRepository; commit: Oid; caches: FactCaches }): Promise<DocResult> {
  let pending = caches.docs.get(commit);
  if (pending === undefined) {
    pending = readDoc(git, commit);
    caches.docs.set(commit, pending);
    pending.catch(() => caches.docs.delete(commit));
  }
  return pending;
}

async function readDoc(git: GitRepository, commit: Oid): Promise<DocResult> {
  const entry = await git.findEntry(commit, IDENTITY_DOC_PATH);
  const bytes = entry?.kind === 'blob' ? await git.readBlob(entry.oid) : null;
  if (entry === null || bytes === null) return { error: `no identity document at ${commit}` };
  try {
    return { doc: parseIdentityDoc(bytes), blob: entry.oid };
  } catch (error) {
    if (error instanceof RejectedError) return { error: error.message };
    throw error;
  }
}

function isAncestor({ git, commit, head, caches }: { git: GitRepository; commit: Oid; head: Oid; caches: FactCaches }): Promise<boolean> {
  const key = `${commit} ${head}`;
  let pending = caches.ancestry.get(key);
  if (pending === undefined) {
    // An unknown commit cannot be on the branch; treat git's refusal as "no".
    pending = git.isAncestor(commit, head).catch(() => false);
    caches.ancestry.set(key, pending);
  }
  return pending;
}

function hasCommit({ git, oid, caches }: { git: GitRepository; oid: Oid; caches: FactCaches }): Promise<boolean> {
  let pending = caches.commits.get(oid);
  if (pending === undefined) {
    pending = git.readObjectInfo(oid).then((info) => info?.type === 'commit');
    caches.commits.set(oid, pending);
    pending.catch(() => caches.commits.delete(oid));
  }
  return pending;
}

function mergeCommit(action: unknown): Oid | null {
  const object = action as { type?: unknown; commit?: unknown } | null;
  const commit = typeof object === 'object' && object?.type === 'merge' ? String(object.commit).toLowerCase() : '';
  return isOid(commit) ? commit : null;
}

function targetBranch(action: unknown): string | null {
  const object = action as { type?: unknown; target?: unknown } | null;
  if (typeof object !== 'object' || object?.type !== 'edit') return null;
  // Most edits name no branch (every issue title edit, patches kept on the delegates): no
  // parse, whose error for them cost ~10 µs each (an Error with its stack) on a first listing.
  if (typeof object.target !== 'object' || object.target === null) return null;
  try {
    const target = parseMergeTarget(object.target);
    return target === 'delegates' ? null : target.branch;
  } catch {
    return null;
  }
}

function jobRequest(action: unknown): Oid | null {
  const request = (action as { Request?: { oid?: unknown } } | null)?.Request;
  const oid = typeof request === 'object' && request !== null ? String(request.oid).toLowerCase() : '';
  return isOid(oid) ? oid : null;
}
