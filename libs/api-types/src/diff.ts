/**
 * Wire types of diffs (api.md "Diff"; behaviour.md B §6.1–6.3). The commit endpoint and the
 * `/diff` endpoint carry the same information with different key orders:
 * - commit endpoint (§6.1): lines `type, line, lineNo` / `type, line, lineNoOld, lineNoNew`;
 * - `/diff/{base}/{oid}` (§6.2): lines `line, lineNo, type` / `line, lineNoOld, lineNoNew, type`.
 * Everything else is written in the order of the interfaces below.
 */

/** Mode of one side of a changed file. */
export type DiffFileMode = 'blob' | 'blobExecutable' | 'tree' | 'link' | 'commit';

/** One side of a changed file: `{oid, mode}`. */
export interface DiffFile {
  oid: string;
  mode: DiffFileMode;
}

/** A hunk line; `line` includes its newline and is null when the bytes are not UTF-8 (Part A). */
export type DiffLine =
  | { type: 'addition'; line: string | null; lineNo: number }
  | { type: 'deletion'; line: string | null; lineNo: number }
  | { type: 'context'; line: string | null; lineNoOld: number; lineNoNew: number };

/** `{start, end}`: `end` = start + line count. */
export interface DiffRange {
  start: number;
  end: number;
}

/**
 * A hunk; `header` is the whole `@@ … @@ context\n` line, decoded lossily (U+FFFD) when not
 * UTF-8 (radicle-explorer requires a string here).
 */
export interface DiffHunk {
  header: string;
  lines: DiffLine[];
  old: DiffRange;
  new: DiffRange;
}

/** Which sides lack a final newline. */
export type DiffEof = 'noneMissing' | 'oldMissing' | 'newMissing' | 'bothMissing';

/**
 * A file's content change. `tooLarge: true` (forge-httpd addition, behaviour.md Part A "Bounded
 * diffs"): git's output for the diff was longer than the server's cap (8 MiB) before this
 * file's hunks, so `hunks` is empty and `stats` are git's numstat counts; fetch the blobs
 * instead. Clients that do not know the field see a plain diff without hunks.
 */
export type DiffContent =
  | {
      type: 'plain';
      hunks: DiffHunk[];
      stats: { additions: number; deletions: number };
      eof: DiffEof;
      tooLarge?: true;
    }
  | { type: 'binary' }
  | { type: 'empty' };

/** One changed file, tagged by `status` (written first). */
export type FileDiff =
  | { status: 'added'; path: string; diff: DiffContent; new: DiffFile }
  | { status: 'deleted'; path: string; diff: DiffContent; old: DiffFile }
  | { status: 'modified'; path: string; diff: DiffContent; old: DiffFile; new: DiffFile }
  | MovedFileDiff;

/** A move or copy: `current` when old and new are identical (oid and mode), else both and the diff. */
export type MovedFileDiff =
  | { status: 'moved' | 'copied'; oldPath: string; newPath: string; current: DiffFile }
  | { status: 'moved' | 'copied'; oldPath: string; newPath: string; old: DiffFile; new: DiffFile; diff: DiffContent };

/** Totals: insertions/deletions count added, deleted and modified files only. */
export interface DiffStats {
  filesChanged: number;
  insertions: number;
  deletions: number;
}

/** A diff: `files` in git's order (paths byte-wise), then `stats`. */
export interface Diff {
  files: FileDiff[];
  stats: DiffStats;
}

/** The diff of the commit endpoint (line keys `type, line, lineNo`). */
export type CommitDiff = Diff;

/** The diff of the `/diff/{base}/{oid}` endpoint (line keys `line, lineNo, type`). */
export type RangeDiff = Diff;

/** A blob of a diff's `files` map: content is UTF-8 text, or base64 when not UTF-8. */
export interface DiffBlob {
  id: string;
  binary: boolean;
  content: string;
}

/**
 * Blobs on both sides of a diff, keyed by oid ascending. Blobs above 1 MiB, and blobs past a
 * total of 8 MiB, are left out (fetch them with the blob route).
 */
export type DiffFiles = Record<string, DiffBlob>;
