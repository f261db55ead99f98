// @forge-httpd/diff: git's diff output in, structured diffs out (pure, no internal deps).
export type {
  DiffContent,
  DiffLine,
  DiffSide,
  DiffSummary,
  EofState,
  FileDiff,
  FileHead,
  FileMode,
  FileStats,
  FileStatus,
  Hunk,
  LineRange,
  LineText,
} from './types.js';
export { parseGitPatch } from './parse-git-patch.js';
export type { ParseGitPatchOptions } from './parse-git-patch.js';
export { formatGitPatch, formatHunkHeader } from './format-git-patch.js';
export { parseNumstat } from './parse-numstat.js';
export type { NumstatRecord } from './parse-numstat.js';
export { resolveCutFiles } from './resolve-cut-files.js';
export { summarizeDiff } from './summarize-diff.js';
export { isBinaryContent, BINARY_CHECK_BYTES } from './is-binary-content.js';
export { listDiffBlobs } from './diff-blobs.js';
export { decodeUtf8OrNull } from './text.js';
export { quoteGitPath } from './c-quote.js';
export { DIFF_FILES_BLOB_MAX_BYTES, DIFF_FILES_TOTAL_MAX_BYTES, DIFF_PATCH_MAX_BYTES } from './limits.js';
