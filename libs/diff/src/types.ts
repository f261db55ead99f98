/**
 * The structured form of one diff, as parsed from git's own output. Text fields are decoded
 * once at parse time; the exact bytes are kept where decoding can lose them, so that
 * `formatGitPatch` can reproduce git's output byte for byte.
 */

/** How a file changed between the two trees (git's A, D, M, R, C; a type change is D + A). */
export type FileStatus = 'added' | 'deleted' | 'modified' | 'moved' | 'copied';

/** The kind of a tree entry, named after its git mode. */
export type FileMode = 'blob' | 'blobExecutable' | 'tree' | 'link' | 'commit';

/** Which side of a file lacks its final newline ("\ No newline at end of file"). */
export type EofState = 'noneMissing' | 'oldMissing' | 'newMissing' | 'bothMissing';

/** One side (old or new) of a changed file. */
export interface DiffSide {
  /** Blob id (or commit id for a submodule), 40 lower-case hex characters. */
  readonly oid: string;
  readonly mode: FileMode;
  /** The octal mode as git prints it, e.g. `100644`. */
  readonly gitMode: string;
}

/**
 * The content of one hunk line: `text` includes the line's newline when it has one and is null
 * when the bytes are not valid UTF-8; `raw` holds the exact bytes only in that case (to keep
 * memory low for the common, valid case).
 */
export interface LineText {
  readonly text: string | null;
  readonly raw?: Buffer;
}

/** One line of a hunk; additions carry the new-side and deletions the old-side line number. */
export type DiffLine =
  | (LineText & { readonly type: 'addition'; readonly lineNo: number })
  | (LineText & { readonly type: 'deletion'; readonly lineNo: number })
  | (LineText & { readonly type: 'context'; readonly lineNoOld: number; readonly lineNoNew: number });

/** A line range of one side: `end` = `start` + number of lines (git's `@@ -start,count`). */
export interface LineRange {
  readonly start: number;
  readonly end: number;
}

/** One hunk: its `@@` header line (with newline; null when not UTF-8) and its lines. */
export interface Hunk {
  readonly header: string | null;
  /** Bytes after `@@ -a,b +c,d @@` (git's function context, with its leading space), without newline. */
  readonly section: Buffer;
  readonly old: LineRange;
  readonly new: LineRange;
  readonly lines: readonly DiffLine[];
}

/** Per-file line counts (number of addition and deletion lines). */
export interface FileStats {
  readonly additions: number;
  readonly deletions: number;
}

/**
 * What the diff says about the file's content. `tooLarge`: the patch text was cut by the
 * byte cap before this file's hunks, so they are not available (`parseGitPatch`);
 * `resolveCutFiles` turns it into a `plain` content without hunks, git's numstat counts and
 * `tooLarge: true`.
 */
export type DiffContent =
  | {
      readonly type: 'plain';
      readonly hunks: readonly Hunk[];
      readonly stats: FileStats;
      readonly eof: EofState;
      /** Set when the hunks were cut by the byte cap (then `hunks` is empty, `stats` git's numstat). */
      readonly tooLarge?: true;
    }
  | { readonly type: 'binary' }
  | { readonly type: 'empty' }
  | { readonly type: 'tooLarge' };

/** One changed file. For added/deleted/modified files `oldPath` equals `newPath`. */
export interface FileDiff {
  readonly status: FileStatus;
  /** Path before the change, decoded as UTF-8 (invalid bytes become U+FFFD). */
  readonly oldPath: string;
  readonly newPath: string;
  /** Exact path bytes, for re-rendering and lookups of non-UTF-8 names. */
  readonly oldPathBytes: Buffer;
  readonly newPathBytes: Buffer;
  /** Absent for added files. */
  readonly old: DiffSide | null;
  /** Absent for deleted files. */
  readonly new: DiffSide | null;
  /** Similarity percentage of a move or copy (git's `R087` → 87), else null. */
  readonly similarity: number | null;
  /** True for the deleted and added halves of one git type change (`T`). */
  readonly typeChange: boolean;
  readonly content: DiffContent;
}

/** Totals over a diff (docs/radicle-httpd.md §6.1: moved/copied content is not counted). */
export interface DiffSummary {
  readonly filesChanged: number;
  readonly insertions: number;
  readonly deletions: number;
}

/** A changed file before its content is known (what the raw record and header say). */
export type FileHead = Omit<FileDiff, 'content'>;
