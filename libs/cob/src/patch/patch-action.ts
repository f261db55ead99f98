/**
 * `xyz.radicle.patch` actions (docs/node-home.md §7.2), decoded like the node's serde derive.
 * Field names follow the node exactly: `revision.comment` uses `replyTo`, while
 * `review.comment` uses `reply_to` (the node's enum renames variants, not fields); `replyTo`
 * is accepted there too for tolerance.
 *
 * Current heartwood (`crates/radicle/src/cob/patch.rs`, `patch/actions.rs`) adds
 * `review.react`, the versioned `review.edit.v2` (the summary is required and carries embeds)
 * and merge targets naming a branch (`{"branch": "refs/heads/…"}`).
 */
import { RejectedError } from '@forge-httpd/identity';
import type { Did } from '@forge-httpd/identity';
import type { Oid } from '@forge-httpd/storage';
import {
  asObject,
  type JsonObject,
  readArray,
  readBoolean,
  readDefaultArray,
  readOid,
  readOptionalOid,
  readOptionalString,
  readString,
  toOid,
} from '../model/json-fields.js';
import { type CodeLocation, type Embed, toCodeLocation, toDid, toEmbed, toLabel, toReaction } from '../model/values.js';

/** Review verdict. */
export type Verdict = 'accept' | 'reject';

/** Lifecycle states an action may request. */
export type PatchLifecycle = 'open' | 'draft' | 'archived';

interface Ref {
  readonly review: Oid;
  readonly comment: Oid;
}
interface RevRef {
  readonly revision: Oid;
  readonly comment: Oid;
}
interface Body {
  readonly body: string;
  readonly embeds: readonly Embed[];
}
interface React {
  readonly reaction: string;
  readonly active: boolean;
}
interface ReviewFields {
  readonly summary: string | null;
  readonly verdict: Verdict | null;
  readonly labels: readonly string[];
}

/**
 * Where a patch is meant to be merged: the delegates' default branch, or a named branch
 * (a fully qualified `refs/heads/…` name).
 */
export type MergeTarget = 'delegates' | { readonly branch: string };

/** `review.edit` (v1: a missing summary keeps the previous one) or `review.edit.v2`. */
export type ReviewEditAction = {
  readonly type: 'review.edit';
  readonly review: Oid;
  readonly version: 1 | 2;
  readonly embeds: readonly Embed[];
} & ReviewFields;

/** One decoded patch action. */
export type PatchAction =
  | { readonly type: 'edit'; readonly title: string; readonly target: MergeTarget }
  | { readonly type: 'label'; readonly labels: ReadonlySet<string> }
  | { readonly type: 'lifecycle'; readonly state: PatchLifecycle }
  | { readonly type: 'assign'; readonly assignees: ReadonlySet<Did> }
  | { readonly type: 'merge'; readonly revision: Oid; readonly commit: Oid }
  | ({ readonly type: 'review'; readonly revision: Oid } & ReviewFields)
  | ReviewEditAction
  | { readonly type: 'review.redact'; readonly review: Oid }
  | ({ readonly type: 'review.react'; readonly review: Oid } & React)
  | ({ readonly type: 'review.comment'; readonly review: Oid; readonly location: CodeLocation | null; readonly replyTo: Oid | null } & Body)
  | ({ readonly type: 'review.comment.edit' } & Ref & Body)
  | ({ readonly type: 'review.comment.redact' } & Ref)
  | ({ readonly type: 'review.comment.react' } & Ref & React)
  | ({ readonly type: 'review.comment.resolve' | 'review.comment.unresolve' } & Ref)
  | { readonly type: 'revision'; readonly description: string; readonly base: Oid; readonly oid: Oid; readonly resolves: readonly (readonly [Oid, Oid])[] }
  | { readonly type: 'revision.edit'; readonly revision: Oid; readonly description: string; readonly embeds: readonly Embed[] }
  | ({ readonly type: 'revision.react'; readonly revision: Oid; readonly location: CodeLocation | null } & React)
  | { readonly type: 'revision.redact'; readonly revision: Oid }
  | ({ readonly type: 'revision.comment'; readonly revision: Oid; readonly location: CodeLocation | null; readonly replyTo: Oid | null } & Body)
  | ({ readonly type: 'revision.comment.edit' } & RevRef & Body)
  | ({ readonly type: 'revision.comment.redact' } & RevRef)
  | ({ readonly type: 'revision.comment.react' } & RevRef & React);

/**
 * Decodes one patch action blob.
 * @param value - the parsed JSON (undefined when the blob was not JSON)
 * @throws RejectedError for unknown types and invalid fields
 */
export function parsePatchAction(value: unknown): PatchAction {
  const o = asObject(value, 'patch action');
  const type = o['type'];
  switch (type) {
    case 'edit':
      return { type, title: readString(o, 'title'), target: parseMergeTarget(o['target']) };
    case 'label':
      return { type, labels: new Set(readArray(o, 'labels').map(toLabel)) };
    case 'lifecycle':
      return { type, state: parseLifecycle(o['state']) };
    case 'assign':
      return { type, assignees: new Set(readArray(o, 'assignees').map(toDid)) };
    case 'merge':
      return { type, revision: readOid(o, 'revision'), commit: readOid(o, 'commit') };
    case 'review':
      return { type, revision: readOid(o, 'revision'), ...reviewFields(o) };
    case 'review.edit':
      return { type, review: readOid(o, 'review'), version: 1, embeds: [], ...reviewFields(o) };
    case 'review.edit.v2':
      // v2 always records a summary edit ("" when absent), with embeds.
      return {
        type: 'review.edit',
        review: readOid(o, 'review'),
        version: 2,
        ...reviewFields(o),
        summary: readOptionalString(o, 'summary') ?? '',
        embeds: readDefaultArray(o, 'embeds').map(toEmbed),
      };
    case 'review.redact':
      return { type, review: readOid(o, 'review') };
    case 'review.react':
      return { type, review: readOid(o, 'review'), ...react(o) };
    case 'review.comment':
      return {
        type,
        review: readOid(o, 'review'),
        location: toCodeLocation(o['location']),
        replyTo: readOptionalOid(o, o['reply_to'] === undefined ? 'replyTo' : 'reply_to'),
        ...optionalBody(o),
      };
    default:
      return parseMorePatchActions(o, type);
  }
}

function parseMorePatchActions(o: JsonObject, type: unknown): PatchAction {
  switch (type) {
    case 'review.comment.edit':
      return { type, ...reviewRef(o), ...requiredBody(o) };
    case 'review.comment.redact':
    case 'review.comment.resolve':
    case 'review.comment.unresolve':
      return { type, ...reviewRef(o) };
    case 'review.comment.react':
      return { type, ...reviewRef(o), ...react(o) };
    case 'revision':
      return {
        type,
        description: readString(o, 'description'),
        base: readOid(o, 'base'),
        oid: readOid(o, 'oid'),
        resolves: readDefaultArray(o, 'resolves').map(toPair),
      };
    case 'revision.edit':
      return { type, revision: readOid(o, 'revision'), description: readString(o, 'description'), embeds: readDefaultArray(o, 'embeds').map(toEmbed) };
    case 'revision.react':
      return { type, revision: readOid(o, 'revision'), location: toCodeLocation(o['location']), ...react(o) };
    case 'revision.redact':
      return { type, revision: readOid(o, 'revision') };
    case 'revision.comment':
      return { type, revision: readOid(o, 'revision'), location: toCodeLocation(o['location']), replyTo: readOptionalOid(o, 'replyTo'), ...optionalBody(o) };
    case 'revision.comment.edit':
      return { type, ...revisionRef(o), ...requiredBody(o) };
    case 'revision.comment.redact':
      return { type, ...revisionRef(o) };
    case 'revision.comment.react':
      return { type, ...revisionRef(o), ...react(o) };
    default:
      throw new RejectedError(`unknown patch action ${String(type)}`, { unknownAction: String(type) });
  }
}

/**
 * Reads a merge target: `"delegates"` or `{"branch": name}` (a bare name means `refs/heads/name`).
 * @throws RejectedError when it is neither
 */
export function parseMergeTarget(value: unknown): MergeTarget {
  if (value === 'delegates') return value;
  const branch = asObject(value, 'merge target')['branch'];
  if (typeof branch !== 'string' || !isBranchName(branch)) throw new RejectedError('invalid merge target');
  return { branch: branch.startsWith('refs/') ? branch : `refs/heads/${branch}` };
}

/** A branch name the node accepts as a target: unqualified or under `refs/heads/`, no odd characters. */
function isBranchName(name: string): boolean {
  if (name.startsWith('refs/') && !name.startsWith('refs/heads/')) return false;
  // git's ref-name rules, enough to keep a stored name from becoming anything but a ref.
  return name !== '' && !/(^|\/)\.|\.\.|[\x00-\x20\x7f~^:?*[\\]|@\{|\/\/|\/$|\.lock$|\.$/.test(name);
}

function parseLifecycle(value: unknown): PatchLifecycle {
  const status = asObject(value, 'patch state')['status'];
  if (status === 'open' || status === 'draft' || status === 'archived') return status;
  throw new RejectedError('invalid patch lifecycle');
}

function reviewFields(o: JsonObject): ReviewFields {
  const verdict = readOptionalString(o, 'verdict');
  if (verdict !== null && verdict !== 'accept' && verdict !== 'reject') throw new RejectedError('invalid verdict');
  return { summary: readOptionalString(o, 'summary'), verdict, labels: readDefaultArray(o, 'labels').map(toLabel) };
}

function reviewRef(o: JsonObject): Ref {
  return { review: readOid(o, 'review'), comment: readOid(o, 'comment') };
}

function revisionRef(o: JsonObject): RevRef {
  return { revision: readOid(o, 'revision'), comment: readOid(o, 'comment') };
}

function react(o: JsonObject): React {
  return { reaction: toReaction(o['reaction']), active: readBoolean(o, 'active') };
}

function optionalBody(o: JsonObject): Body {
  return { body: readString(o, 'body'), embeds: readDefaultArray(o, 'embeds').map(toEmbed) };
}

function requiredBody(o: JsonObject): Body {
  return { body: readString(o, 'body'), embeds: readArray(o, 'embeds').map(toEmbed) };
}

function toPair(value: unknown): readonly [Oid, Oid] {
  if (!Array.isArray(value) || value.length !== 2) throw new RejectedError('invalid resolves entry');
  return [toOid(value[0], 'resolves'), toOid(value[1], 'resolves')];
}
