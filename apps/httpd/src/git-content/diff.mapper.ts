import type * as Api from '@forge-httpd/api-types';
import { formatHunkHeader, summarizeDiff, type DiffContent, type DiffLine, type DiffSide, type FileDiff, type Hunk } from '@forge-httpd/diff';
import { type BlobContent, withContent } from './blob-content.mapper.js';

/**
 * Parsed diff → wire Diff (docs/radicle-httpd.md §6.1–6.3). The two endpoints differ only in the key
 * order of hunk lines: the commit endpoint writes `type` first (httpd's own serializer, §6.1),
 * the `/diff` endpoint last (radicle-surf's, §6.2).
 */

/** Which serializer's key order the lines follow. */
export type LineKeyOrder = 'typeFirst' | 'typeLast';

/** A blob of the `files` map, as the service loaded it. */
export interface DiffBlobData extends BlobContent {
  readonly id: string;
}

/**
 * Maps a parsed diff to `{files, stats}`.
 * @param files - parsed file diffs, in git's order
 * @param order - `typeFirst` for the commit endpoint, `typeLast` for `/diff/{base}/{oid}`
 * @returns the wire diff
 */
export function toDiff(files: readonly FileDiff[], order: LineKeyOrder): Api.Diff {
  return { files: files.map((file) => toFileDiff(file, order)), stats: summarizeDiff(files) };
}

/**
 * Maps the loaded blobs to the `files` map, keyed by oid in ascending order.
 * @param blobs - blobs sorted by id
 * @returns `{<oid>: {id, binary, content}}`
 */
export function toDiffFiles(blobs: readonly DiffBlobData[]): Api.DiffFiles {
  const files: Api.DiffFiles = {};
  for (const blob of [...blobs].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    files[blob.id] = withContent({ id: blob.id, binary: blob.binary }, blob.content);
  }
  return files;
}

function toFileDiff(file: FileDiff, order: LineKeyOrder): Api.FileDiff {
  const diff = (): Api.DiffContent => toContent(file.content, order);
  const { old, new: now } = file;
  switch (file.status) {
    case 'added':
      return { status: 'added', path: file.newPath, diff: diff(), new: side(now) };
    case 'deleted':
      return { status: 'deleted', path: file.oldPath, diff: diff(), old: side(old) };
    case 'modified':
      return { status: 'modified', path: file.newPath, diff: diff(), old: side(old), new: side(now) };
    default: {
      const paths = { status: file.status, oldPath: file.oldPath, newPath: file.newPath };
      const unchanged = old !== null && now !== null && old.oid === now.oid && old.mode === now.mode;
      if (unchanged) return { ...paths, current: side(now) };
      return { ...paths, old: side(old), new: side(now), diff: diff() };
    }
  }
}

function side(value: DiffSide | null): Api.DiffFile {
  // Present by construction for the statuses that show it (parseGitPatch).
  const { oid, mode } = value as DiffSide;
  return { oid, mode };
}

function toContent(content: DiffContent, order: LineKeyOrder): Api.DiffContent {
  if (content.type === 'tooLarge') return CUT_WITHOUT_COUNTS;
  if (content.type !== 'plain') return { type: content.type };
  const mapped: Api.DiffContent = {
    type: 'plain',
    hunks: content.hunks.map((hunk) => ({
      header: headerText(hunk),
      lines: hunk.lines.map((line) => (order === 'typeFirst' ? lineTypeFirst(line) : lineTypeLast(line))),
      old: { start: hunk.old.start, end: hunk.old.end },
      new: { start: hunk.new.start, end: hunk.new.end },
    })),
    stats: { additions: content.stats.additions, deletions: content.stats.deletions },
    eof: content.eof,
  };
  return content.tooLarge === true ? { ...mapped, tooLarge: true } : mapped;
}

/**
 * The explorer's schema requires a string header, so a header that is not UTF-8 is decoded
 * lossily (U+FFFD) rather than sent as null (docs/decisions.md, "Non-UTF-8 text").
 */
function headerText(hunk: Hunk): string {
  return hunk.header ?? formatHunkHeader(hunk).toString('utf8');
}

/** A cut file the service did not resolve (it always does): still a shape clients accept. */
const CUT_WITHOUT_COUNTS: Api.DiffContent = {
  type: 'plain',
  hunks: [],
  stats: { additions: 0, deletions: 0 },
  eof: 'noneMissing',
  tooLarge: true,
};

function lineTypeFirst(line: DiffLine): Api.DiffLine {
  if (line.type === 'context') {
    return { type: 'context', line: line.text, lineNoOld: line.lineNoOld, lineNoNew: line.lineNoNew };
  }
  return { type: line.type, line: line.text, lineNo: line.lineNo };
}

function lineTypeLast(line: DiffLine): Api.DiffLine {
  if (line.type === 'context') {
    return { line: line.text, lineNoOld: line.lineNoOld, lineNoNew: line.lineNoNew, type: 'context' };
  }
  return { line: line.text, lineNo: line.lineNo, type: line.type };
}
