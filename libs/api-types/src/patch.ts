/**
 * Wire types of patches (api.md 22–23; behaviour.md B §6.5). Keys are listed in the order the
 * server writes them; timestamps are seconds.
 */
import type { Author, CommentEdit, Embed, Reaction } from './issue.js';

/** A line or character range in a code location. */
export type CodeRange =
  | { type: 'lines'; range: { start: number; end: number } }
  | { type: 'chars'; line: number; range: { start: number; end: number } };

/** A place in a revision's diff; `old`/`new` are omitted when absent. */
export interface CodeLocation {
  commit: string;
  path: string;
  old?: CodeRange;
  new?: CodeRange;
}

/** A comment of a revision discussion or a review; `location` is null when none. */
export interface PatchComment {
  id: string;
  author: Author;
  body: string;
  edits: CommentEdit[];
  embeds: Embed[];
  reactions: Reaction[];
  timestamp: number;
  replyTo: string | null;
  location: CodeLocation | null;
  resolved: boolean;
}

/** A revision reaction: without `location` when it is on the whole revision. */
export interface RevisionReaction {
  location?: CodeLocation;
  emoji: string;
  authors: Author[];
}

/**
 * A review of a revision (its labels are not shown). `summary` is the latest summary edit
 * (`""` when none); `reactions` (not shown by radicle-httpd) come from `review.react`.
 */
export interface Review {
  id: string;
  author: Author;
  verdict: 'accept' | 'reject' | null;
  summary: string;
  comments: PatchComment[];
  reactions: Reaction[];
  timestamp: number;
}

/** A revision of a patch; the first revision's id is the patch id. */
export interface Revision {
  id: string;
  author: Author;
  description: string;
  edits: CommentEdit[];
  reactions: RevisionReaction[];
  base: string;
  oid: string;
  /** Names in the revision author's signed refs pointing at `oid`. */
  refs: string[];
  discussions: PatchComment[];
  timestamp: number;
  reviews: Review[];
}

/** A delegate's merge. */
export interface PatchMerge {
  author: Author;
  commit: string;
  timestamp: number;
  revision: string;
}

/** Patch state. */
export type PatchState =
  | { status: 'draft' }
  | { status: 'open'; conflicts?: [string, string][] }
  | { status: 'archived' }
  | { status: 'merged'; revision: string; commit: string };

/** A patch. */
export interface Patch {
  id: string;
  author: Author;
  title: string;
  state: PatchState;
  /** `"delegates"` (the default branch) or a named target's qualified branch name. */
  target: string;
  labels: string[];
  merges: PatchMerge[];
  assignees: Author[];
  revisions: Revision[];
}
