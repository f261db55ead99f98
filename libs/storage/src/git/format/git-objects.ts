/**
 * Parsed git objects as returned by {@link GitRepository} reads.
 */
import type { GitHeader } from '../objects/object-headers.js';
import type { GitObjectType } from '../objects/object-type.js';
import type { Oid } from '../objects/oid.js';
import type { GitSignature } from './signature.js';

/** A commit. Text fields are decoded as UTF-8 (invalid sequences become U+FFFD). */
export interface GitCommit {
  readonly oid: Oid;
  readonly tree: Oid;
  readonly parents: readonly Oid[];
  readonly author: GitSignature;
  readonly committer: GitSignature;
  /** The message decoded as UTF-8. */
  readonly message: string;
  /** The message bytes exactly as stored. */
  readonly rawMessage: Buffer;
  /** Headers other than tree/parent/author/committer (e.g. `gpgsig`, `mergetag`, `encoding`), in order. */
  readonly headers: readonly GitHeader[];
  /** False when author, committer or message bytes were not valid UTF-8. */
  readonly isUtf8: boolean;
}

/** An annotated tag object. */
export interface GitTag {
  readonly oid: Oid;
  /** The tagged object. */
  readonly object: Oid;
  readonly type: GitObjectType;
  /** Tag name as written in the object (without `refs/tags/`). */
  readonly tag: string;
  readonly tagger: GitSignature | null;
  readonly message: string;
  readonly rawMessage: Buffer;
  readonly headers: readonly GitHeader[];
  readonly isUtf8: boolean;
}

/** What a tree entry points to: `commit` for submodules (mode 160000). */
export type TreeEntryKind = 'blob' | 'tree' | 'commit';

/** One tree entry. `mode` is as stored (`100644`, `100755`, `120000`, `40000`, `160000`). */
export interface TreeEntry {
  readonly name: string;
  readonly mode: string;
  readonly kind: TreeEntryKind;
  readonly oid: Oid;
}

/** Type and size of an object, without its content. */
export interface GitObjectInfo {
  readonly type: GitObjectType;
  readonly size: number;
}

/** An object's type and content. */
export interface GitObject {
  readonly type: GitObjectType;
  readonly data: Buffer;
}
