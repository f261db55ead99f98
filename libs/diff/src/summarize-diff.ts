/**
 * Diff totals, as radicle-httpd reports them (docs/radicle-httpd.md §6.1).
 */
import type { DiffSummary, FileDiff } from './types.js';

/**
 * Totals a diff: every file entry counts as changed; insertions and deletions count the lines
 * of plain diffs of added, deleted and modified files only (moved/copied content is not
 * counted, like radicle-httpd).
 * @param files - parsed file diffs
 * @returns `{filesChanged, insertions, deletions}`
 */
export function summarizeDiff(files: readonly FileDiff[]): DiffSummary {
  let insertions = 0;
  let deletions = 0;
  for (const file of files) {
    if (file.content.type !== 'plain' || file.status === 'moved' || file.status === 'copied') continue;
    insertions += file.content.stats.additions;
    deletions += file.content.stats.deletions;
  }
  return { filesChanged: files.length, insertions, deletions };
}
