import type { CommentView, Issue, Patch } from '@forge-httpd/cob';

/** Latest of a comment's edits (its writing included), seconds. */
function commentActivity(comment: CommentView<unknown>): number {
  return comment.edits.reduce((latest, edit) => Math.max(latest, edit.timestamp), comment.timestamp);
}

function threadActivity(comments: readonly CommentView<unknown>[]): number {
  return comments.reduce((latest, comment) => Math.max(latest, commentActivity(comment)), 0);
}

/** An issue's last activity: its opening, or a comment or an edit of one, whichever is latest (seconds). */
export function issueActivity(issue: Issue): number {
  return Math.max(issue.timestamp, threadActivity(issue.discussion));
}

/**
 * A patch's last activity: its opening, a revision or an edit of its description, a comment on
 * a revision, a review (its summary's edits and comments) or a merge, whichever is latest (seconds).
 */
export function patchActivity(patch: Patch): number {
  let latest = patch.timestamp;
  for (const revision of patch.revisions) {
    latest = Math.max(latest, revision.timestamp, threadActivity(revision.discussion));
    for (const edit of revision.edits) latest = Math.max(latest, edit.timestamp);
    for (const review of revision.reviews) {
      latest = Math.max(latest, review.timestamp, threadActivity(review.comments));
      for (const edit of review.summaryEdits) latest = Math.max(latest, edit.timestamp);
    }
  }
  for (const merge of patch.merges) latest = Math.max(latest, merge.timestamp);
  return latest;
}

/** The `count` items with the latest activity, latest first, ties by id. */
export function latestByActivity<T extends { readonly id: string }>(
  items: readonly T[],
  activity: (item: T) => number,
  count: number,
): Array<{ item: T; updated: number }> {
  return items
    .map((item) => ({ item, updated: activity(item) }))
    .sort((a, b) => b.updated - a.updated || (a.item.id < b.item.id ? -1 : a.item.id > b.item.id ? 1 : 0))
    .slice(0, count);
}
