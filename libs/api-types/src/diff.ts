/**
 * Diffs (docs/api.md "Diff"; docs/radicle-httpd.md §6.1–6.3). The commit endpoint and the `/diff` endpoint
 * carry the same information with different key orders, so each has its own schema:
 * - commit endpoint (§6.1): lines `type, line, lineNo` / `type, line, lineNoOld, lineNoNew`;
 * - `/diff/{base}/{oid}` (§6.2): lines `line, lineNo, type` / `line, lineNoOld, lineNoNew, type`.
 * Everything else is written in the order of the schemas below.
 */
import * as v from 'valibot';
import { countSchema, integerSchema, oidSchema } from './scalars.js';

/** Mode of one side of a changed file. */
export const diffFileModeSchema = v.picklist(['blob', 'blobExecutable', 'tree', 'link', 'commit']);
export type DiffFileMode = v.InferOutput<typeof diffFileModeSchema>;

/** One side of a changed file: `{oid, mode}`. */
export const diffFileSchema = v.object({ oid: oidSchema, mode: diffFileModeSchema });
export type DiffFile = v.InferOutput<typeof diffFileSchema>;

/** Hunk line text: includes its newline; null when the bytes are not UTF-8 (docs/decisions.md). */
const lineText = v.nullable(v.string());

/** A hunk line in the commit endpoint's key order. */
export const commitDiffLineSchema = v.union([
  v.object({ type: v.literal('addition'), line: lineText, lineNo: integerSchema }),
  v.object({ type: v.literal('deletion'), line: lineText, lineNo: integerSchema }),
  v.object({ type: v.literal('context'), line: lineText, lineNoOld: integerSchema, lineNoNew: integerSchema }),
]);

/** A hunk line in the `/diff/{base}/{oid}` key order. */
export const rangeDiffLineSchema = v.union([
  v.object({ line: lineText, lineNo: integerSchema, type: v.literal('addition') }),
  v.object({ line: lineText, lineNo: integerSchema, type: v.literal('deletion') }),
  v.object({ line: lineText, lineNoOld: integerSchema, lineNoNew: integerSchema, type: v.literal('context') }),
]);
export type DiffLine = v.InferOutput<typeof commitDiffLineSchema>;

/** `{start, end}`: `end` = start + line count. */
export const diffRangeSchema = v.object({ start: integerSchema, end: integerSchema });
export type DiffRange = v.InferOutput<typeof diffRangeSchema>;

/** Which sides lack a final newline. */
export const diffEofSchema = v.picklist(['noneMissing', 'oldMissing', 'newMissing', 'bothMissing']);
export type DiffEof = v.InferOutput<typeof diffEofSchema>;

/** Totals: insertions/deletions count added, deleted and modified files only. */
export const diffStatsSchema = v.object({
  filesChanged: countSchema,
  insertions: countSchema,
  deletions: countSchema,
});
export type DiffStats = v.InferOutput<typeof diffStatsSchema>;

/**
 * The schemas of one diff shape, built around its hunk line. A hunk's `header` is the whole
 * `@@ … @@ context\n` line, decoded lossily (U+FFFD) when not UTF-8. `tooLarge: true`
 * (docs/decisions.md "Bounded diffs"): git's output was longer than the server's cap (8 MiB)
 * before this file's hunks, so `hunks` is empty and `stats` are git's numstat counts.
 */
function diffSchemas<L extends typeof commitDiffLineSchema | typeof rangeDiffLineSchema>(line: L) {
  const hunk = v.object({ header: v.string(), lines: v.array(line), old: diffRangeSchema, new: diffRangeSchema });
  const content = v.union([
    v.object({
      type: v.literal('plain'),
      hunks: v.array(hunk),
      stats: v.object({ additions: countSchema, deletions: countSchema }),
      eof: diffEofSchema,
      tooLarge: v.optional(v.literal(true)),
    }),
    v.object({ type: v.literal('binary') }),
    v.object({ type: v.literal('empty') }),
  ]);
  const moved = v.picklist(['moved', 'copied']);
  // A move or copy shows `current` when old and new are identical (oid and mode).
  const movedFile = v.union([
    v.object({ status: moved, oldPath: v.string(), newPath: v.string(), current: diffFileSchema }),
    v.object({ status: moved, oldPath: v.string(), newPath: v.string(), old: diffFileSchema, new: diffFileSchema, diff: content }),
  ]);
  const file = v.union([
    v.object({ status: v.literal('added'), path: v.string(), diff: content, new: diffFileSchema }),
    v.object({ status: v.literal('deleted'), path: v.string(), diff: content, old: diffFileSchema }),
    v.object({ status: v.literal('modified'), path: v.string(), diff: content, old: diffFileSchema, new: diffFileSchema }),
    ...movedFile.options,
  ]);
  // `files` in git's order (paths byte-wise), then `stats`.
  const diff = v.object({ files: v.array(file), stats: diffStatsSchema });
  return { hunk, content, movedFile, file, diff };
}

const commitDiff = diffSchemas(commitDiffLineSchema);
const rangeDiff = diffSchemas(rangeDiffLineSchema);

export const diffHunkSchema = commitDiff.hunk;
export type DiffHunk = v.InferOutput<typeof diffHunkSchema>;
export const diffContentSchema = commitDiff.content;
export type DiffContent = v.InferOutput<typeof diffContentSchema>;
export const fileDiffSchema = commitDiff.file;
export type FileDiff = v.InferOutput<typeof fileDiffSchema>;
export type MovedFileDiff = v.InferOutput<typeof commitDiff.movedFile>;

/** The diff of the commit endpoint (line keys `type, line, lineNo`). */
export const commitDiffSchema = commitDiff.diff;
export type CommitDiff = v.InferOutput<typeof commitDiffSchema>;
/** The diff of the `/diff/{base}/{oid}` endpoint (line keys `line, lineNo, type`). */
export const rangeDiffSchema = rangeDiff.diff;
export type RangeDiff = v.InferOutput<typeof rangeDiffSchema>;
/** A diff (both endpoints' shapes are the same type). */
export type Diff = CommitDiff;

/** A blob of a diff's `files` map: content is UTF-8 text, or base64 when not UTF-8. */
export const diffBlobSchema = v.object({ id: oidSchema, binary: v.boolean(), content: v.string() });
export type DiffBlob = v.InferOutput<typeof diffBlobSchema>;

/**
 * Blobs on both sides of a diff, keyed by oid ascending. Blobs above 1 MiB, and blobs past a
 * total of 8 MiB, are left out (fetch them with the blob route).
 */
export const diffFilesSchema = v.record(v.string(), diffBlobSchema);
export type DiffFiles = v.InferOutput<typeof diffFilesSchema>;
