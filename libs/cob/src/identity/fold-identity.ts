/**
 * The identity reducer (docs/node-home.md §4.3–4.4; radicle `Identity::from_root` / `op`).
 */
import { didFromNid, type Nid, publicKeyFromNid, RejectedError, verifySignature } from '@forge-httpd/identity';
import type { Oid } from '@forge-httpd/storage';
import type { Change } from '../change.js';
import type { ApplyContext, CobFolder } from '../dag/evaluate-changes.js';
import { delegateMajority, type IdentityDoc, isDelegate } from '../model/identity-doc.js';
import { type IdentityAction, parseIdentityAction } from './identity-action.js';
import { currentRevision, type IdentityRevision, type IdentityState } from './identity-state.js';

/** Repository facts the identity fold needs. */
export interface IdentityEnv {
  /** The repository id as a blob oid (RID = the root document's blob). */
  readonly ridOid: Oid;
  /** Document and its blob id at a commit's `embeds/radicle.json`; throws RejectedError. */
  docAt(commit: Oid): { readonly doc: IdentityDoc; readonly blob: Oid };
  /** Document of a blob; throws RejectedError. */
  docBlob(blob: Oid): IdentityDoc;
}

/** Builds the identity fold for one evaluation. */
export function identityFolder(env: IdentityEnv): CobFolder<IdentityState> {
  return { init: (root) => initIdentity(root, env), apply: (state, change, context) => applyIdentityChange({ state, change, context, env }) };
}

function initIdentity(root: Change, env: IdentityEnv): IdentityState {
  const actions = root.actions.map(parseIdentityAction);
  const first = actions[0];
  if (first?.type !== 'revision' || first.parent !== null || actions.length !== 1) {
    throw new RejectedError('the identity root must hold one revision without parent');
  }
  const { doc, blob } = env.docAt(root.id);
  if (blob !== first.blob || blob !== env.ridOid) throw new RejectedError('identity root does not match the repository id');
  const founder = doc.delegates[0] as string;
  if (founder !== didFromNid(root.author) || !verifies(doc, { author: root.author, signature: first.signature, blob })) {
    throw new RejectedError('identity root is not signed by its founder');
  }
  const revision = newRevision({ id: root.id, action: first, author: root.author, doc, state: 'accepted', timestamp: root.timestamp });
  return {
    root: root.id,
    current: root.id,
    heads: new Map(doc.delegates.map((did) => [did as string, root.id])),
    revisions: new Map([[root.id, revision]]),
    timeline: [root.id],
  };
}

function applyIdentityChange(args: { state: IdentityState; change: Change; context: ApplyContext; env: IdentityEnv }): void {
  const { state, change, context, env } = args;
  const actions = change.actions.map(parseIdentityAction);
  for (const action of actions) {
    try {
      applyIdentityAction(state, { action, change, env });
    } catch (error) {
      // Errors the node tolerates: a state mismatch (a vote that raced a concurrent change) only
      // with concurrent changes; a redacted target always.
      const tolerance = error instanceof RejectedError ? error.tolerance : 'never';
      const tolerated = tolerance === 'always' || (tolerance === 'with-concurrent-changes' && context.hasConcurrent());
      if (!tolerated) throw error;
    }
    state.timeline.push(change.id);
  }
}

function applyIdentityAction(state: IdentityState, { action, change, env }: { action: IdentityAction; change: Change; env: IdentityEnv }): void {
  const current = currentRevision(state);
  if (!isDelegate(current.doc, change.author)) throw new RejectedError('not a delegate', { tolerance: 'with-concurrent-changes' });
  switch (action.type) {
    case 'revision.accept':
      return accept(state, { revision: action.revision, signature: action.signature, author: change.author });
    case 'revision.reject':
      return reject(activeRevision(state, action.revision), change.author);
    case 'RevisionEdit':
      return edit(state, { action, author: change.author });
    case 'revision.redact':
      return redact(state, { id: action.revision, author: change.author });
    case 'revision':
      return propose(state, { action, change, doc: env.docBlob(action.blob) });
  }
}

function accept(state: IdentityState, vote: { revision: Oid; signature: Uint8Array; author: Nid }): void {
  const revision = activeRevision(state, vote.revision);
  state.heads.set(didFromNid(vote.author), revision.id);
  if (!verifies(currentRevision(state).doc, { author: vote.author, signature: vote.signature, blob: revision.blob }))
    throw new RejectedError('invalid accept signature');
  // The node overwrites the verdict before it reports the duplicate.
  const duplicate = revision.verdicts.has(vote.author);
  revision.verdicts.set(vote.author, true);
  if (duplicate) throw new RejectedError('duplicate verdict');
  adopt(state, revision.id);
}

function reject(revision: IdentityRevision, author: Nid): void {
  const duplicate = revision.verdicts.has(author);
  revision.verdicts.set(author, false);
  if (duplicate) throw new RejectedError('duplicate verdict');
  const rejections = [...revision.verdicts.values()].filter((accepted) => !accepted).length;
  if (rejections > revision.doc.delegates.length - delegateMajority(revision.doc)) revision.state = 'rejected';
}

function edit(state: IdentityState, { action, author }: { action: Extract<IdentityAction, { type: 'RevisionEdit' }>; author: Nid }): void {
  if (action.revision === state.current) throw new RejectedError('cannot edit the current revision');
  const revision = activeRevision(state, action.revision);
  if (revision.author !== author) throw new RejectedError('cannot edit another delegate’s revision');
  revision.title = action.title;
  revision.description = action.description;
}

function redact(state: IdentityState, { id, author }: { id: Oid; author: Nid }): void {
  if (id === state.current) throw new RejectedError('cannot redact the current revision', { tolerance: 'with-concurrent-changes' });
  const revision = state.revisions.get(id);
  if (revision === undefined) throw new RejectedError(`revision ${id} missing`);
  if (revision === null) return;
  if (revision.state === 'accepted') throw new RejectedError('cannot redact an accepted revision', { tolerance: 'with-concurrent-changes' });
  if (revision.author !== author) throw new RejectedError('cannot redact another delegate’s revision');
  state.revisions.set(id, null);
}

function propose(state: IdentityState, args: { action: Extract<IdentityAction, { type: 'revision' }>; change: Change; doc: IdentityDoc }): void {
  const { action, change, doc } = args;
  if (action.parent === null) throw new RejectedError('revision without parent');
  const parent = state.revisions.get(action.parent);
  if (parent === undefined) throw new RejectedError(`revision ${action.parent} missing`);
  if (parent === null) throw new RejectedError('parent redacted', { tolerance: 'always' });
  const isCurrent = parent.id === state.current;
  if (isCurrent && doc.canonical === parent.doc.canonical) throw new RejectedError('revision does not change the document');
  if (!verifies(parent.doc, { author: change.author, signature: action.signature, blob: action.blob })) throw new RejectedError('invalid revision signature');
  const revision = newRevision({
    id: change.id,
    action,
    author: change.author,
    doc,
    state: isCurrent ? 'active' : 'stale',
    timestamp: change.timestamp,
    parent: parent.id,
  });
  state.heads.set(didFromNid(change.author), revision.id);
  state.revisions.set(revision.id, revision);
  if (isCurrent) adopt(state, revision.id);
}

/** Makes a revision current once a majority of the current delegates vote for it. */
function adopt(state: IdentityState, id: Oid): void {
  if (state.current === id) return;
  const votes = [...state.heads.values()].filter((head) => head === id).length;
  if (votes < delegateMajority(currentRevision(state).doc)) return;
  state.current = id;
  for (const revision of state.revisions.values()) {
    if (revision?.state === 'active') revision.state = 'stale';
  }
  (state.revisions.get(id) as IdentityRevision).state = 'accepted';
}

function activeRevision(state: IdentityState, id: Oid): IdentityRevision {
  const revision = state.revisions.get(id);
  if (revision === undefined) throw new RejectedError(`revision ${id} missing`);
  if (revision === null) throw new RejectedError('revision redacted', { tolerance: 'always' });
  if (revision.state !== 'active') throw new RejectedError('revision is not active', { tolerance: 'with-concurrent-changes' });
  return revision;
}

/** A delegate of `doc` signed the 20 raw bytes of the document blob id (radicle `verify_signature`). */
function verifies(doc: IdentityDoc, vote: { author: Nid; signature: Uint8Array; blob: Oid }): boolean {
  return isDelegate(doc, vote.author) && verifySignature(publicKeyFromNid(vote.author), Buffer.from(vote.blob, 'hex'), vote.signature);
}

function newRevision(args: {
  id: Oid;
  action: Extract<IdentityAction, { type: 'revision' }>;
  author: Nid;
  doc: IdentityDoc;
  state: IdentityRevision['state'];
  timestamp: number;
  parent?: Oid;
}): IdentityRevision {
  const { id, action, author, doc, state, timestamp } = args;
  return {
    id,
    title: action.title,
    description: action.description,
    author,
    blob: action.blob,
    doc,
    state,
    verdicts: new Map([[author, true]]),
    parent: args.parent ?? null,
    timestamp,
  };
}
