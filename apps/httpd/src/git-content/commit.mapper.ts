import type { Commit } from '@forge-httpd/api-types';
import type { GitCommit } from '@forge-httpd/storage';

/**
 * Commit → wire Commit (docs/radicle-httpd.md §4.3, docs/decisions.md "Commit summary"). Text that is not UTF-8
 * shows with U+FFFD (as decoded by the storage layer) rather than failing the request.
 */

// git__isspace: the whitespace libgit2's summary logic knows.
const GIT_SPACE = new Set([' ', '\t', '\n', '\f', '\r', '\v']);
// Rust's `char::is_whitespace` (Unicode White_Space), which `str::trim` uses: unlike JS `\s`
// it includes U+0085 and excludes U+FEFF.
const WHITE_SPACE = '\\t-\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const RUST_TRIM = new RegExp(`^[${WHITE_SPACE}]+|[${WHITE_SPACE}]+$`, 'g');

/** The message as libgit2 hands it out: leading newlines skipped. */
function messageBody(message: string): string {
  let start = 0;
  while (message[start] === '\n') start += 1;
  return message.slice(start);
}

/**
 * libgit2's `git_commit_summary`: the first paragraph, where each whitespace run that holds a
 * newline becomes one space, other runs are kept, and trailing whitespace is dropped.
 * @param message - the commit message
 * @returns the summary
 */
export function commitSummary(message: string): string {
  const text = messageBody(message);
  // Most messages open with a one-line paragraph: no run holds a newline there, so the
  // summary is that line less its trailing whitespace.
  const lineEnd = text.indexOf('\n');
  if (lineEnd < 0 || lineEnd + 1 === text.length || text[lineEnd + 1] === '\n') {
    let end = lineEnd < 0 ? text.length : lineEnd;
    while (end > 0 && GIT_SPACE.has(text[end - 1] as string)) end -= 1;
    return text.slice(0, end);
  }
  let summary = '';
  let runStart = -1;
  let runHasNewline = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index] as string;
    if (char === '\n' && (index + 1 === text.length || text[index + 1] === '\n')) break;
    if (GIT_SPACE.has(char)) {
      if (runStart < 0) [runStart, runHasNewline] = [index, false];
      runHasNewline ||= char === '\n';
      continue;
    }
    if (runStart >= 0) summary += runHasNewline ? ' ' : text.slice(runStart, index);
    runStart = -1;
    summary += char;
  }
  return summary;
}

/**
 * The description (docs/radicle-httpd.md §4.3): the message after the summary, trimmed; when the summary is not
 * a literal prefix of the message (a multi-line first paragraph), the whole message trimmed.
 * @param message - the commit message
 * @param summary - its {@link commitSummary}
 * @returns the description, possibly empty
 */
export function commitDescription(message: string, summary: string): string {
  const text = messageBody(message);
  const rest = text.startsWith(summary) ? text.slice(summary.length) : text;
  return rest.replace(RUST_TRIM, '');
}

/**
 * Maps a commit to its wire form (`id, author, summary, description, parents, committer`).
 * @param commit - as read by the storage layer
 * @returns the wire commit; committer time in seconds, timezone dropped
 */
export function toCommit(commit: GitCommit): Commit {
  const summary = commitSummary(commit.message);
  return {
    id: commit.oid,
    author: { name: commit.author.name, email: commit.author.email },
    summary,
    description: commitDescription(commit.message, summary),
    parents: [...commit.parents],
    committer: { name: commit.committer.name, email: commit.committer.email, time: commit.committer.time },
  };
}
