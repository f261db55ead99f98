/**
 * Creates and updates COBs as a node does: evaluate the object, write the change on top of
 * its tips, check the node would accept it, move the author's ref and re-sign the author's
 * refs (docs/node-home.md §6, §10.2 "Issues/patches afterwards").
 */
import { RejectedError } from '@forge-httpd/identity';
import type { KeyPair } from '@forge-httpd/identity';
import { type Flavour, type GitRepository, type Oid, openGitRepository, resolveStoredRef, StorageRuntime } from '@forge-httpd/storage';
import { type DirectRefUpdate, updateRefs, writeSignedRefs } from '@forge-httpd/storage/write';
import type { Change } from '../change.js';
import { type CobFolder, evaluateChanges } from '../dag/evaluate-changes.js';
import { issueFolder } from '../issue/fold-issue.js';
import { jobFolder } from '../job/fold-job.js';
import type { FoldEnv } from '../model/fold-env.js';
import { patchFolder } from '../patch/fold-patch.js';
import { readCobRefIndex } from '../read/cob-ref-index.js';
import { loadChange, ManifestCache } from '../read/load-change.js';
import { loadObjectChanges } from '../read/load-object-changes.js';
import { newFactCaches, prepareFoldEnv, type RefLookup } from '../read/prepare-fold-env.js';
import { cobKinds } from '../store/cob-kinds.js';
import { type EmbedFile, writeChange } from './write-change.js';

/** A writer loads the one change it wrote: read in process, not by a git process started for it. */
const IN_PROCESS = {} as const;

/** Who writes, when, and how. */
export interface CobWriteContext {
  /** The storage repository (`<home>/storage/<rid>`). */
  readonly gitDir: string;
  readonly keyPair: KeyPair;
  /** The writer's node alias (commit author name). */
  readonly alias: string;
  /** Commit time in seconds. */
  readonly time: number;
  readonly flavour: Flavour;
  /** Re-sign the author's refs afterwards (default true). */
  readonly signRefs?: boolean;
  /** Skip the acceptance check, to write history a node would reject (tests). */
  readonly force?: boolean;
  /** The storage runtime the repository is read with (default: one of its own, for a one-off write). */
  readonly runtime?: StorageRuntime;
  /** Write a signature that does not verify (forged changes in tests; implies nothing else). */
  readonly badSignature?: boolean;
  /**
   * The identity commit named by `Rad-Resource`; default: the current `refs/rad/id`. Set it to
   * model a node that had not yet seen a later identity revision.
   */
  readonly resource?: Oid;
}

/** A COB type the writer handles. */
export type CobKindName = 'issue' | 'patch' | 'job';

/** One change to write. */
export interface ChangeRequest {
  readonly kind: CobKindName;
  readonly actions: readonly unknown[];
  readonly message: string;
  readonly related?: readonly Oid[];
  readonly embeds?: readonly EmbedFile[];
  /**
   * Write on exactly these tips (default: the tips of every namespace after evaluation, like a
   * node). Older tips model a node that had not fetched the latest changes (concurrency); tips
   * the node would prune model a peer that builds on a rejected change.
   */
  readonly tips?: readonly Oid[];
  /** Extra refs to move with the COB ref (e.g. the patch head branch), `{id}` replaced by the object id. */
  readonly refs?: readonly { readonly name: string; readonly oid: Oid }[];
}

/**
 * Creates an object.
 * @returns the object id (the root change id)
 * @throws RejectedError when the node would reject the object
 */
export async function createCob(context: CobWriteContext, request: ChangeRequest): Promise<Oid> {
  return withGit(context, async (git, resource) => {
    const typeName = cobKinds(context.flavour)[request.kind].typeName;
    const id = await writeChange({ ...context, ...request, typeName, tips: [], resource });
    const env = await changeEnv(context, { git, id });
    if (!context.force) check(() => folderFor(request.kind, env.env).init(env.change));
    await publish(context, { typeName, id, head: id, refs: request.refs });
    return id;
  });
}

/**
 * Adds a change to an existing object.
 * @returns the change id
 * @throws RejectedError when the object does not exist or the node would reject the change
 */
export async function updateCob(context: CobWriteContext, request: ChangeRequest & { readonly id: Oid }): Promise<Oid> {
  return withGit(context, async (git, resource) => {
    const kinds = cobKinds(context.flavour);
    const typeName = kinds[request.kind].typeName;
    // Listing every namespace costs O(refs); with the tips given, nothing is listed.
    const tips = request.tips ?? (await readCobRefIndex(git)).objects.get(typeName)?.get(request.id) ?? [];
    const changes = await loadObjectChanges({ git, tips, typeName, cache: new Map(), manifests: new ManifestCache(), reads: IN_PROCESS });
    const { env } = await prepareFoldEnv({ git, changes, refs: refLookup(git), caches: newFactCaches(), projectPayloadId: kinds.projectPayloadId });
    const evaluation = evaluateChanges({ rootId: request.id, changes, folder: folderFor(request.kind, env) });
    if (evaluation === null) throw new RejectedError(`no valid ${request.kind} ${request.id}`);
    const head = await writeChange({ ...context, ...request, typeName, tips: request.tips ?? evaluation.tips, resource });
    const next = await changeEnv(context, { git, id: head });
    if (!context.force) check(() => folderFor(request.kind, next.env).apply(evaluation.state, next.change, { hasConcurrent: () => false }));
    await publish(context, { typeName, id: request.id, head, refs: request.refs });
    return head;
  });
}

/** One change of a type this library does not evaluate (an external type, releases). */
export interface OtherChangeRequest {
  /** The manifest type name, e.g. `com.example.release`. */
  readonly typeName: string;
  /** Actions (JSON values, or `Uint8Array` blobs written as they are). */
  readonly actions: readonly unknown[];
  readonly message: string;
  /** The object to add the change to; absent to create one. */
  readonly id?: Oid;
  /** Tips to write on (default: the object's tips in every namespace; none when creating). */
  readonly tips?: readonly Oid[];
}

/**
 * Writes and publishes a change of any type, signed as a node signs it, without acceptance
 * checks: a node stores such changes without evaluating them.
 * @returns the object id and the change id
 */
export async function writeOtherCob(context: CobWriteContext, request: OtherChangeRequest): Promise<{ id: Oid; change: Oid }> {
  return withGit(context, async (git, resource) => {
    const { typeName } = request;
    const known = request.id === undefined ? [] : ((await readCobRefIndex(git)).objects.get(typeName)?.get(request.id) ?? []);
    const change = await writeChange({ ...context, ...request, typeName, tips: request.tips ?? known, resource });
    const id = request.id ?? change;
    await publish(context, { typeName, id, head: change });
    return { id, change };
  });
}

async function withGit<T>(context: CobWriteContext, run: (git: GitRepository, resource: Oid) => Promise<T>): Promise<T> {
  const git = openGitRepository(context.gitDir, { runtime: context.runtime ?? new StorageRuntime() });
  try {
    const resource = context.resource ?? (await git.resolveRef('refs/rad/id'));
    if (resource === null) throw new RejectedError('repository has no identity head (refs/rad/id)');
    return await run(git, resource);
  } finally {
    await git.close();
  }
}

async function changeEnv(context: CobWriteContext, { git, id }: { git: GitRepository; id: Oid }): Promise<{ change: Change; env: FoldEnv }> {
  const change = await loadChange(git, id, new ManifestCache(), IN_PROCESS);
  if (change === null) throw new RejectedError(`written change ${id} cannot be loaded`);
  const { env } = await prepareFoldEnv({
    git,
    changes: [change],
    refs: refLookup(git),
    caches: newFactCaches(),
    projectPayloadId: cobKinds(context.flavour).projectPayloadId,
  });
  return { change, env };
}

/** Resolves each consulted ref on its own (a name no ref can have resolves to nothing). */
function refLookup(git: GitRepository): RefLookup {
  return (name) => resolveStoredRef(git, name);
}

function folderFor(kind: CobKindName, env: FoldEnv): CobFolder<unknown> {
  switch (kind) {
    case 'issue':
      return issueFolder(env);
    case 'patch':
      return patchFolder(env);
    case 'job':
      return jobFolder(env);
  }
}

function check(apply: () => unknown): void {
  try {
    apply();
  } catch (error) {
    if (error instanceof RejectedError) throw new RejectedError(`a node would reject this change: ${error.message}`);
    throw error;
  }
}

async function publish(context: CobWriteContext, args: { typeName: string; id: Oid; head: Oid; refs?: ChangeRequest['refs'] }): Promise<void> {
  const namespace = `refs/namespaces/${context.keyPair.nid}/`;
  const updates: DirectRefUpdate[] = [{ name: `${namespace}refs/cobs/${args.typeName}/${args.id}`, oid: args.head }];
  for (const ref of args.refs ?? []) updates.push({ name: `${namespace}${ref.name.replace('{id}', args.id)}`, oid: ref.oid });
  // One transaction moves the object's refs and the signed refs that name them.
  if (context.signRefs !== false) await writeSignedRefs({ gitDir: context.gitDir, keyPair: context.keyPair, time: context.time, alongside: updates });
  else await updateRefs(context.gitDir, updates);
}
