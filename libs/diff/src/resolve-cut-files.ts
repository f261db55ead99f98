/**
 * Gives the files of a cut diff (content `tooLarge`) what git's numstat knows about them, so
 * that every file carries a content type clients understand (docs/decisions.md, "Bounded
 * diffs"): line counts without hunks, or `binary` / `empty` when that is what git says.
 */
import type { NumstatRecord } from './parse-numstat.js';
import type { DiffContent, FileDiff, FileStats } from './types.js';

const NO_LINES: FileStats = { additions: 0, deletions: 0 };

/**
 * Replaces each `tooLarge` content by `{type: 'plain', hunks: [], stats, eof: 'noneMissing',
 * tooLarge: true}` with git's numstat counts; a file numstat calls binary (`-\t-`) becomes
 * `binary`, and one without changed lines what an uncut diff says (hunks are all it has). The
 * two halves of a type change share one record: the deletion takes its deleted lines, the
 * addition its added lines. A file without a matching record gets zero counts.
 * @param files - parsed file diffs, in git's order (from `parseGitPatch`)
 * @param numstat - records of the same diff (from `parseNumstat`), in git's order
 * @returns the files, with no `tooLarge` content left
 */
export function resolveCutFiles(files: readonly FileDiff[], numstat: readonly NumstatRecord[]): FileDiff[] {
  const resolved: FileDiff[] = [];
  let record = 0;
  for (const file of files) {
    const entry = numstat[record];
    const matches = entry !== undefined && entry.newPath.equals(file.newPathBytes) && entry.oldPath.equals(file.oldPathBytes);
    // The deletion half of a type change shares its record with the addition that follows.
    const halfOfTypeChange = file.typeChange && file.status === 'deleted';
    if (!halfOfTypeChange) record += 1;
    if (file.content.type !== 'tooLarge') {
      resolved.push(file);
      continue;
    }
    const stats = matches ? entry.stats : NO_LINES;
    resolved.push({ ...file, content: contentOf(stats, file) });
  }
  return resolved;
}

function contentOf(stats: FileStats | null, file: FileDiff): DiffContent {
  if (stats === null) return { type: 'binary' };
  const counts = !file.typeChange
    ? stats
    : file.status === 'deleted'
      ? { additions: 0, deletions: stats.deletions }
      : { additions: stats.additions, deletions: 0 };
  // No changed line means no hunk was lost: answer what an uncut diff says (parse-section.ts).
  if (counts.additions === 0 && counts.deletions === 0) {
    if (file.status === 'moved' || file.status === 'copied') return { type: 'empty' };
    return { type: 'plain', hunks: [], stats: NO_LINES, eof: 'noneMissing' };
  }
  return { type: 'plain', hunks: [], stats: counts, eof: 'noneMissing', tooLarge: true };
}
