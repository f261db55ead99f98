/**
 * Pure mappers shared by issues and patches: authors, edits, embeds, reactions, comments
 * (docs/radicle-httpd.md §6.4; docs/decisions.md: alias omitted when unknown, timestamps in seconds).
 */
import type { Author, CommentEdit, Embed, IssueComment, Reaction } from '@forge-httpd/api-types';
import type { CommentView, Edit, Embed as CobEmbed, ReactionGroup } from '@forge-httpd/cob';
import { didFromNid, type Nid } from '@forge-httpd/identity';
import type { AliasLookup } from './cob-store.service.js';

/** `{id: did, alias?}`. */
export function toAuthor(nid: Nid, aliasOf: AliasLookup): Author {
  const alias = aliasOf(nid);
  return alias === null ? { id: didFromNid(nid) } : { id: didFromNid(nid), alias };
}

/** `{name, content}` in that order. */
function toEmbeds(embeds: readonly CobEmbed[]): Embed[] {
  return embeds.map((embed) => ({ name: embed.name, content: embed.content }));
}

/** `{author, body, timestamp, embeds}`. */
export function toEdit(edit: Edit, aliasOf: AliasLookup): CommentEdit {
  return { author: toAuthor(edit.author, aliasOf), body: edit.body, timestamp: edit.timestamp, embeds: toEmbeds(edit.embeds) };
}

/** `{emoji, authors}` per emoji. */
export function toReactions(groups: readonly ReactionGroup[], aliasOf: AliasLookup): Reaction[] {
  return groups.map((group) => ({ emoji: group.emoji, authors: group.authors.map((nid) => toAuthor(nid, aliasOf)) }));
}

/** An issue comment: `{id, author, body, edits, embeds, reactions, timestamp, replyTo, resolved}`. */
export function toIssueComment(comment: CommentView<unknown>, aliasOf: AliasLookup): IssueComment {
  return {
    id: comment.id,
    author: toAuthor(comment.author, aliasOf),
    body: comment.body,
    edits: comment.edits.map((edit) => toEdit(edit, aliasOf)),
    embeds: toEmbeds(comment.embeds),
    reactions: toReactions(comment.reactions, aliasOf),
    timestamp: comment.timestamp,
    replyTo: comment.replyTo,
    resolved: comment.resolved,
  };
}
