/**
 * One file's section of git's patch output: `diff --git a/… b/…`, extended header lines
 * (git-diff(1) "generating patch text with -p"), then either `Binary files … differ`, or
 * `---`/`+++` and hunks, or nothing (mode change, pure rename/copy, empty file).
 */
import type { LineReader } from './line-reader.js';
import { parseHunk } from './parse-hunk.js';
import type { DiffContent, EofState, FileHead, Hunk } from './types.js';

const SECTION_STARTS = ['diff --git ', '--- ', 'Binary files ', '@@ '];

/**
 * Reads one file's section; the file's identity comes from its raw record.
 * @param reader - positioned on the `diff --git` line
 * @param head - the file, from the raw record
 * @returns its content, or null when the input ends inside the section
 * @throws SyntaxError when the section does not have git's shape
 */
export function parseSection(reader: LineReader, head: FileHead): DiffContent | null {
  if (atCut(reader)) return null;
  if (!reader.nextStartsWith('diff --git ')) throw new SyntaxError('expected a `diff --git` line');
  if (!skipHeader(reader) || (!reader.done && atCut(reader))) return null;
  if (reader.nextStartsWith('Binary files ')) {
    reader.next();
    return { type: 'binary' };
  }
  if (reader.nextStartsWith('GIT binary patch')) throw new SyntaxError('unexpected binary patch');
  if (!reader.nextStartsWith('--- ')) return emptyContent(head);
  reader.next();
  if (atCut(reader)) return null;
  if (!reader.nextStartsWith('+++ ')) throw new SyntaxError('expected a `+++` line');
  reader.next();
  return readHunks(reader);
}

/** True at the end of input or on a last line without newline: the output was cut here. */
function atCut(reader: LineReader): boolean {
  return reader.peek()?.terminated !== true;
}

/** Skips `diff --git` and the extended header lines; false when the input ends there. */
function skipHeader(reader: LineReader): boolean {
  do {
    if (reader.next()?.terminated !== true) return false;
  } while (!reader.done && !SECTION_STARTS.some((start) => reader.nextStartsWith(start)));
  return true;
}

function readHunks(reader: LineReader): DiffContent | null {
  const hunks: Hunk[] = [];
  let additions = 0;
  let deletions = 0;
  let oldMissing = false;
  let newMissing = false;
  while (reader.nextStartsWith('@@ ')) {
    const parsed = parseHunk(reader);
    if (parsed === null) return null;
    hunks.push(parsed.hunk);
    for (const line of parsed.hunk.lines) {
      if (line.type === 'addition') additions++;
      else if (line.type === 'deletion') deletions++;
    }
    oldMissing ||= parsed.oldMissingNewline;
    newMissing ||= parsed.newMissingNewline;
  }
  // A cut line that may be another `@@` leaves the file incomplete; `d…` starts the next file.
  if (!reader.done && atCut(reader) && !reader.nextStartsWith('d')) return null;
  if (hunks.length === 0) return atCut(reader) ? null : fail('expected a hunk after `+++`');
  return { type: 'plain', hunks, stats: { additions, deletions }, eof: eofState(oldMissing, newMissing) };
}

function eofState(oldMissing: boolean, newMissing: boolean): EofState {
  if (oldMissing) return newMissing ? 'bothMissing' : 'oldMissing';
  return newMissing ? 'newMissing' : 'noneMissing';
}

/** No patch text: a move/copy without content change is `empty`, anything else a plain, hunk-less diff. */
function emptyContent(head: FileHead): DiffContent {
  if (head.status === 'moved' || head.status === 'copied') return { type: 'empty' };
  return { type: 'plain', hunks: [], stats: { additions: 0, deletions: 0 }, eof: 'noneMissing' };
}

function fail(message: string): never {
  throw new SyntaxError(message);
}
