/**
 * One hunk of git's unified diff output (git-diff(1) "combined diff format" aside, the
 * unified format of xdiff: `@@ -l,s +l,s @@ <function context>` then ` `, `-`, `+` lines,
 * each possibly followed by `\ No newline at end of file`).
 */
import type { LineReader, LineSpan } from './line-reader.js';
import { decodeUtf8OrNull, lineTextOf } from './text.js';
import type { DiffLine, Hunk } from './types.js';

/** A parsed hunk plus what its lines say about the files' final newlines. */
export interface ParsedHunk {
  readonly hunk: Hunk;
  readonly oldMissingNewline: boolean;
  readonly newMissingNewline: boolean;
}

const HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

interface Cursor {
  oldLine: number;
  newLine: number;
  oldLeft: number;
  newLeft: number;
  oldMissing: boolean;
  newMissing: boolean;
}

/**
 * Reads one hunk, starting at its `@@` line.
 * @param reader - positioned on the `@@` line
 * @returns the hunk, or null when the input ends inside it
 * @throws SyntaxError on a malformed header or line
 */
export function parseHunk(reader: LineReader): ParsedHunk | null {
  const headerLine = reader.next();
  if (headerLine === null || !headerLine.terminated) return null;
  const headerBytes = reader.bytes.subarray(headerLine.start, headerLine.end + 1);
  const match = HEADER.exec(headerBytes.toString('latin1'));
  if (match === null) throw new SyntaxError('malformed hunk header');
  const [whole, oldStart = '', oldCount = '1', newStart = '', newCount = '1'] = match;
  const old = range(oldStart, oldCount);
  const now = range(newStart, newCount);
  const cursor: Cursor = {
    oldLine: old.start,
    newLine: now.start,
    oldLeft: old.end - old.start,
    newLeft: now.end - now.start,
    oldMissing: false,
    newMissing: false,
  };
  const lines: DiffLine[] = [];
  while (cursor.oldLeft > 0 || cursor.newLeft > 0) {
    const line = readLine(reader, cursor);
    if (line === null) return null;
    lines.push(line);
  }
  const header = decodeUtf8OrNull(headerBytes);
  const section = Buffer.from(headerBytes.subarray(whole.length, headerBytes.length - 1));
  const hunk: Hunk = { header, section, old, new: now, lines };
  return { hunk, oldMissingNewline: cursor.oldMissing, newMissingNewline: cursor.newMissing };
}

function range(start: string, count: string): { start: number; end: number } {
  const first = Number.parseInt(start, 10);
  return { start: first, end: first + Number.parseInt(count, 10) };
}

function readLine(reader: LineReader, cursor: Cursor): DiffLine | null {
  const span = reader.next();
  if (span === null || !span.terminated) return null;
  const origin = span.end > span.start ? reader.bytes[span.start] : 0x20;
  // A following "\ No newline at end of file" means the line's newline is not content.
  const missingNewline = reader.nextStartsWith('\\');
  if (missingNewline && reader.next()?.terminated !== true) return null;
  const content = contentOf(reader, span, missingNewline);
  switch (origin) {
    case 0x20:
      return contextLine(cursor, content, missingNewline);
    case 0x2d:
      if (cursor.oldLeft-- <= 0) throw new SyntaxError('hunk has more old lines than its header says');
      cursor.oldMissing ||= missingNewline;
      return withText({ type: 'deletion' as const, text: null as string | null, lineNo: cursor.oldLine++ }, content);
    case 0x2b:
      if (cursor.newLeft-- <= 0) throw new SyntaxError('hunk has more new lines than its header says');
      cursor.newMissing ||= missingNewline;
      return withText({ type: 'addition' as const, text: null as string | null, lineNo: cursor.newLine++ }, content);
    default:
      throw new SyntaxError('unexpected line in hunk');
  }
}

type Content = { source: Buffer; start: number; end: number };

/** The line's content bytes (after the origin character), as a range of the output. */
function contentOf(reader: LineReader, span: LineSpan, missingNewline: boolean): Content {
  // An empty line stands for an empty context line (diff.suppressBlankEmpty).
  if (span.end === span.start) return { source: missingNewline ? EMPTY : NEWLINE, start: 0, end: missingNewline ? 0 : 1 };
  return { source: reader.bytes, start: span.start + 1, end: missingNewline ? span.end : span.end + 1 };
}

const EMPTY = Buffer.alloc(0);
const NEWLINE = Buffer.from('\n');

/** Fills in a fresh line's text (one object per line: this runs for every line of a diff). */
function withText<L extends { text: string | null; raw?: Buffer }>(line: L, content: Content): L {
  const decoded = lineTextOf(content.source, content.start, content.end);
  line.text = decoded.text;
  if (decoded.raw !== undefined) line.raw = decoded.raw;
  return line;
}

function contextLine(cursor: Cursor, content: Content, missingNewline: boolean): DiffLine {
  if (cursor.oldLeft-- <= 0 || cursor.newLeft-- <= 0) {
    throw new SyntaxError('hunk has more context lines than its header says');
  }
  if (missingNewline) {
    cursor.oldMissing = true;
    cursor.newMissing = true;
  }
  const line = { type: 'context' as const, text: null as string | null, lineNoOld: cursor.oldLine++, lineNoNew: cursor.newLine++ };
  return withText(line, content);
}
