/**
 * Renders structured file diffs back into git's exact output, for the git oracle: parsing
 * git's output and rendering it again must give the same bytes.
 */
import { quoteGitPath } from './c-quote.js';
import { lineBytesOf } from './text.js';
import type { DiffContent, FileDiff, Hunk, LineRange } from './types.js';

const ZERO_OID = '0'.repeat(40);
const NO_NEWLINE = Buffer.from('\n\\ No newline at end of file\n');

/**
 * Renders files as `git diff-tree -r -z --raw -p -M -C --full-index` prints them.
 * @param files - as returned by `parseGitPatch` (not truncated)
 * @returns git's bytes: raw records, a NUL, the patch (empty when there are no files)
 * @throws SyntaxError for a `tooLarge` file, whose hunks are unknown
 */
export function formatGitPatch(files: readonly FileDiff[]): Buffer {
  if (files.length === 0) return Buffer.alloc(0);
  const parts: Buffer[] = [];
  files.forEach((file, index) => {
    // The added half of a type change shares the deleted half's raw record.
    if (!(file.typeChange && file.status === 'added')) parts.push(formatRawRecord(file, files[index + 1]));
  });
  parts.push(Buffer.from([0]));
  for (const file of files) parts.push(...formatSection(file));
  return Buffer.concat(parts);
}

function formatRawRecord(file: FileDiff, next: FileDiff | undefined): Buffer {
  const newSide = file.typeChange ? next?.new : file.new;
  const meta = [
    `:${file.old?.gitMode ?? '000000'}`,
    newSide?.gitMode ?? '000000',
    file.old?.oid ?? ZERO_OID,
    newSide?.oid ?? ZERO_OID,
    statusLetter(file),
  ].join(' ');
  const twoPaths = file.status === 'moved' || file.status === 'copied';
  const paths = twoPaths ? [file.oldPathBytes, file.newPathBytes] : [file.newPathBytes];
  const nul = Buffer.from([0]);
  return Buffer.concat([Buffer.from(meta, 'latin1'), ...paths.flatMap((path) => [nul, path]), nul]);
}

function statusLetter(file: FileDiff): string {
  if (file.typeChange) return 'T';
  const score = file.similarity === null ? '' : String(file.similarity).padStart(3, '0');
  return { added: 'A', deleted: 'D', modified: 'M', moved: `R${score}`, copied: `C${score}` }[file.status];
}

function formatSection(file: FileDiff): Buffer[] {
  const a = quoteGitPath(file.oldPathBytes, 'a/');
  const b = quoteGitPath(file.newPathBytes, 'b/');
  const text = (value: string): Buffer => Buffer.from(value, 'latin1');
  const out = [text('diff --git '), a, text(' '), b, text('\n'), ...formatExtendedHeader(file)];
  return [...out, ...formatContent(file, file.content)];
}

function formatExtendedHeader(file: FileDiff): Buffer[] {
  const lines: Buffer[] = [];
  const line = (...parts: (string | Buffer)[]): void => {
    const bytes = parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : part));
    lines.push(Buffer.concat([...bytes, Buffer.from('\n')]));
  };
  const { old, new: now } = file;
  if (old === null && now !== null) line('new file mode ', now.gitMode);
  else if (now === null && old !== null) line('deleted file mode ', old.gitMode);
  else if (old !== null && now !== null && old.gitMode !== now.gitMode) {
    line('old mode ', old.gitMode);
    line('new mode ', now.gitMode);
  }
  if (file.status === 'moved' || file.status === 'copied') {
    const verb = file.status === 'moved' ? 'rename' : 'copy';
    line(`similarity index ${file.similarity ?? 0}%`);
    line(`${verb} from `, quoteGitPath(file.oldPathBytes));
    line(`${verb} to `, quoteGitPath(file.newPathBytes));
  }
  const oldOid = old?.oid ?? ZERO_OID;
  const newOid = now?.oid ?? ZERO_OID;
  if (oldOid !== newOid) {
    const mode = old !== null && now !== null && old.gitMode === now.gitMode ? ` ${old.gitMode}` : '';
    line(`index ${oldOid}..${newOid}${mode}`);
  }
  return lines;
}

function formatContent(file: FileDiff, content: DiffContent): Buffer[] {
  const cut = content.type === 'tooLarge' || (content.type === 'plain' && content.tooLarge === true);
  if (cut) throw new SyntaxError('cannot render a file whose patch was cut');
  const labelA = file.old === null ? Buffer.from('/dev/null') : quoteGitPath(file.oldPathBytes, 'a/');
  const labelB = file.new === null ? Buffer.from('/dev/null') : quoteGitPath(file.newPathBytes, 'b/');
  if (content.type === 'binary') {
    return [Buffer.from('Binary files '), labelA, Buffer.from(' and '), labelB, Buffer.from(' differ\n')];
  }
  if (content.type === 'empty' || content.hunks.length === 0) return [];
  // git appends a TAB to a ---/+++ name that contains a space (for GNU patch).
  const tabA = file.old !== null && file.oldPathBytes.includes(0x20) ? '\t' : '';
  const tabB = file.new !== null && file.newPathBytes.includes(0x20) ? '\t' : '';
  return [Buffer.from('--- '), labelA, Buffer.from(`${tabA}\n+++ `), labelB, Buffer.from(`${tabB}\n`), ...content.hunks.flatMap(formatHunk)];
}

function formatHunk(hunk: Hunk): Buffer[] {
  const out = [formatHunkHeader(hunk)];
  for (const line of hunk.lines) {
    const origin = line.type === 'addition' ? '+' : line.type === 'deletion' ? '-' : ' ';
    const bytes = lineBytesOf(line);
    out.push(Buffer.from(origin), bytes);
    if (bytes[bytes.length - 1] !== 0x0a) out.push(NO_NEWLINE);
  }
  return out;
}

/**
 * A hunk's header line as git wrote it: `@@ -<old> +<new> @@<section>\n` (a range is
 * `start,count`, or `start` alone when count is 1).
 * @param hunk - a parsed hunk
 * @returns the exact bytes, newline included
 */
export function formatHunkHeader(hunk: Hunk): Buffer {
  const ranges = `@@ -${formatRange(hunk.old)} +${formatRange(hunk.new)} @@`;
  return Buffer.concat([Buffer.from(ranges, 'latin1'), hunk.section, Buffer.from('\n')]);
}

function formatRange(range: LineRange): string {
  const count = range.end - range.start;
  return count === 1 ? `${range.start}` : `${range.start},${count}`;
}
