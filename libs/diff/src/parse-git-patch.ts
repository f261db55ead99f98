/**
 * Parses git's own diff output into structured file diffs.
 */
import { fileModeOf } from './file-mode.js';
import { LineReader } from './line-reader.js';
import { parseRawRecords, type RawRecord } from './raw-records.js';
import { parseSection } from './parse-section.js';
import type { DiffContent, DiffSide, FileDiff, FileHead } from './types.js';

/** Options of {@link parseGitPatch}. */
export interface ParseGitPatchOptions {
  /** The output was cut by a byte cap: files whose section is (or may be) incomplete become `tooLarge`. */
  readonly truncated?: boolean;
}

const TOO_LARGE: DiffContent = { type: 'tooLarge' };

/**
 * Parses the output of `git diff-tree -r -z --raw -p -M -C --full-index` (raw records, one NUL,
 * then the patch text). Files come in git's order; a type change (raw `T`) becomes a deletion
 * followed by an addition, as git prints it.
 * @param patch - git's output, possibly cut at a byte cap
 * @param options - whether the output was cut
 * @returns one entry per changed file
 * @throws SyntaxError when the output does not have git's shape
 */
export function parseGitPatch(patch: Buffer, options: ParseGitPatchOptions = {}): FileDiff[] {
  const truncated = options.truncated ?? false;
  const raw = parseRawRecords(patch);
  if (!raw.complete && !truncated) throw new SyntaxError('diff output ends inside its raw records');
  const reader = new LineReader(patch, raw.patchStart);
  const files: FileDiff[] = [];
  for (const record of raw.records) {
    for (const head of headsOf(record)) files.push({ ...head, content: readContent(reader, head, truncated) });
  }
  if (!reader.done && !truncated) throw new SyntaxError('patch has more sections than raw records');
  return files;
}

function readContent(reader: LineReader, head: FileHead, truncated: boolean): DiffContent {
  if (reader.done && truncated) return TOO_LARGE;
  if (reader.done) throw new SyntaxError('patch has fewer sections than raw records');
  const content = parseSection(reader, head);
  if (content !== null && !(truncated && reader.done)) return content;
  // A section that reaches the cut may have lost later hunks, even if it looks complete;
  // everything after it is unknown too.
  if (!truncated) throw new SyntaxError('patch ends inside a file section');
  reader.skipToEnd();
  return TOO_LARGE;
}

function headsOf(record: RawRecord): FileHead[] {
  const oldSide = side(record.oldMode, record.oldOid);
  const newSide = side(record.newMode, record.newOid);
  const paths = {
    oldPath: record.oldPath.toString('utf8'),
    newPath: record.newPath.toString('utf8'),
    oldPathBytes: record.oldPath,
    newPathBytes: record.newPath,
  };
  const base = { ...paths, similarity: null, typeChange: false };
  switch (record.status) {
    case 'A':
      return [{ ...base, status: 'added', old: null, new: newSide }];
    case 'D':
      return [{ ...base, status: 'deleted', old: oldSide, new: null }];
    case 'M':
      return [{ ...base, status: 'modified', old: oldSide, new: newSide }];
    case 'R':
    case 'C': {
      const status = record.status === 'R' ? 'moved' : 'copied';
      return [{ ...base, status, old: oldSide, new: newSide, similarity: record.score }];
    }
    case 'T':
      return [
        { ...base, status: 'deleted', old: oldSide, new: null, typeChange: true },
        { ...base, status: 'added', old: null, new: newSide, typeChange: true },
      ];
  }
}

function side(gitMode: string, oid: string): DiffSide {
  return { oid, mode: fileModeOf(gitMode), gitMode };
}
