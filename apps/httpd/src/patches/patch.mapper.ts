/**
 * Pure mappers of evaluated patches to the wire format (docs/radicle-httpd.md §6.5): key orders as
 * radicle-httpd writes them, timestamps in seconds, aliases omitted when unknown.
 */
import type { CodeLocation, CodeRange, Patch as WirePatch, PatchComment, PatchState, Review, Revision, RevisionReaction } from '@forge-httpd/api-types';
import type { CodeLocation as CobLocation, CommentView, Patch, PatchStatus, ReviewView, RevisionReaction as CobReaction, RevisionView } from '@forge-httpd/cob';
import { nidFromDid } from '@forge-httpd/identity';
import type { AliasLookup } from '../cobs/cob-store.service.js';
import { toAuthor, toEdit, toIssueComment, toReactions } from '../cobs/comment.mapper.js';

/** `{id, author, title, state, target, labels, merges, assignees, revisions}`. */
export function toPatch(patch: Patch, aliasOf: AliasLookup): WirePatch {
  return {
    id: patch.id,
    author: toAuthor(patch.author, aliasOf),
    title: patch.title,
    state: toPatchState(patch.state),
    // The explorer's schema takes a string: a named target shows as its qualified branch name.
    target: patch.target === 'delegates' ? 'delegates' : patch.target.branch,
    labels: [...patch.labels],
    merges: patch.merges.map((m) => ({ author: toAuthor(m.author, aliasOf), commit: m.commit, timestamp: m.timestamp, revision: m.revision })),
    assignees: patch.assignees.map((did) => toAuthor(nidFromDid(did), aliasOf)),
    revisions: patch.revisions.map((revision) => toRevision(revision, aliasOf)),
  };
}

function toPatchState(state: PatchStatus): PatchState {
  switch (state.status) {
    case 'open':
      return state.conflicts.length === 0 ? { status: 'open' } : { status: 'open', conflicts: state.conflicts.map(([r, c]) => [r, c]) };
    case 'merged':
      return { status: 'merged', revision: state.revision, commit: state.commit };
    default:
      return { status: state.status };
  }
}

function toRevision(revision: RevisionView, aliasOf: AliasLookup): Revision {
  return {
    id: revision.id,
    author: toAuthor(revision.author, aliasOf),
    description: revision.description,
    edits: revision.edits.map((edit) => toEdit(edit, aliasOf)),
    reactions: revision.reactions.map((reaction) => toRevisionReaction(reaction, aliasOf)),
    base: revision.base,
    oid: revision.oid,
    refs: [...revision.refs],
    discussions: revision.discussion.map((comment) => toPatchComment(comment, aliasOf)),
    timestamp: revision.timestamp,
    reviews: revision.reviews.map((review) => toReview(review, aliasOf)),
  };
}

function toRevisionReaction(reaction: CobReaction, aliasOf: AliasLookup): RevisionReaction {
  const authors = reaction.authors.map((nid) => toAuthor(nid, aliasOf));
  return reaction.location === null ? { emoji: reaction.emoji, authors } : { location: toCodeLocation(reaction.location), emoji: reaction.emoji, authors };
}

function toReview(review: ReviewView, aliasOf: AliasLookup): Review {
  return {
    id: review.id,
    author: toAuthor(review.author, aliasOf),
    verdict: review.verdict,
    summary: review.summary,
    comments: review.comments.map((comment) => toPatchComment(comment, aliasOf)),
    reactions: toReactions(review.reactions, aliasOf),
    timestamp: review.timestamp,
  };
}

/** Like an issue comment, with `location` between `replyTo` and `resolved` (key order is wire format). */
function toPatchComment(comment: CommentView<CobLocation>, aliasOf: AliasLookup): PatchComment {
  const { resolved, ...common } = toIssueComment(comment, aliasOf);
  return { ...common, location: comment.location === null ? null : toCodeLocation(comment.location), resolved };
}

/** `{commit, path, old?, new?}`: absent ranges are left out. */
function toCodeLocation(location: CobLocation): CodeLocation {
  const result: CodeLocation = { commit: location.commit, path: location.path };
  if (location.old !== null) result.old = toCodeRange(location.old);
  if (location.new !== null) result.new = toCodeRange(location.new);
  return result;
}

function toCodeRange(range: NonNullable<CobLocation['old']>): CodeRange {
  const span = { start: range.range.start, end: range.range.end };
  return range.type === 'lines' ? { type: 'lines', range: span } : { type: 'chars', line: range.line, range: span };
}
