/**
 * The header block shared by commit and tag objects: `key SP value LF` lines, where a value
 * continues on following lines that start with one space (git's object format; used by
 * `gpgsig` and `mergetag`), then an empty line, then the message bytes verbatim.
 */
import { InvalidDataError } from '@forge-httpd/identity';

/** One header line of a commit or tag, with continuation lines joined by `\n`. */
export interface GitHeader {
  readonly name: string;
  readonly value: string;
}

/** A header as stored: the value's raw bytes (continuations joined by `\n`). */
export interface RawGitHeader {
  readonly name: string;
  readonly value: Buffer;
}

/** Headers and the raw message bytes of a commit or tag object. */
export interface ParsedObjectHeaders {
  readonly headers: RawGitHeader[];
  readonly message: Buffer;
}

/**
 * Renders one header, prefixing continuation lines with a single space.
 * @param header - header name (no space/newline) and value (may contain `\n`)
 * @returns the header line(s) ending with `\n`
 * @throws Error when the name is not a plain token
 */
export function formatHeader(header: GitHeader): string {
  if (!/^[^\s\0]+$/.test(header.name)) throw new Error(`invalid header name: ${header.name}`);
  if (header.value.includes('\0')) throw new Error('header value must not contain NUL');
  return `${header.name} ${header.value.split('\n').join('\n ')}\n`;
}

/**
 * Splits a commit or tag object into its headers and message, keeping raw bytes so that
 * callers can decide per field whether it is valid UTF-8.
 * @param data - the object content (without loose-object header)
 * @returns headers in order (continuations joined) and the message bytes after the blank line
 * @throws InvalidDataError when a line is not `key SP value` or a continuation
 */
export function parseObjectHeaders(data: Buffer): ParsedObjectHeaders {
  // Byte offsets throughout: every commit read goes through here (histories of 50,000
  // commits), so no header text, line list or re-encoded copy is made on the way.
  const { headerEnd, messageStart } = findHeaderEnd(data);
  const headers: RawGitHeader[] = [];
  let open: OpenHeader | undefined;
  let lineStart = 0;
  for (;;) {
    const newline = data.indexOf(0x0a, lineStart);
    const lineEnd = newline < 0 || newline > headerEnd ? headerEnd : newline;
    if (data[lineStart] === SPACE && lineStart < lineEnd && open !== undefined) {
      (open.continuations ??= []).push(lineStart + 1, lineEnd);
    } else {
      if (open !== undefined) headers.push(closeHeader(data, open));
      const space = data.indexOf(SPACE, lineStart);
      if (space <= lineStart || space >= lineEnd) throw new InvalidDataError('object', 'malformed object header line');
      open = { name: headerName(data, lineStart, space), valueStart: space + 1, valueEnd: lineEnd, continuations: undefined };
    }
    if (lineEnd >= headerEnd) break;
    lineStart = lineEnd + 1;
  }
  // The first line either threw or opened a header.
  if (open !== undefined) headers.push(closeHeader(data, open));
  return { headers, message: data.subarray(messageStart) };
}

const SPACE = 0x20;

/** A header whose continuation lines may still follow: byte ranges of its value's lines. */
interface OpenHeader {
  readonly name: string;
  readonly valueStart: number;
  readonly valueEnd: number;
  /** Start and end of each continuation line, its leading space left out. */
  continuations: number[] | undefined;
}

/** The header's value: its bytes in place, or its lines joined by `\n` when it continues. */
function closeHeader(data: Buffer, header: OpenHeader): RawGitHeader {
  const { name, valueStart, valueEnd, continuations } = header;
  if (continuations === undefined) return { name, value: data.subarray(valueStart, valueEnd) };
  const parts = [data.subarray(valueStart, valueEnd)];
  for (let at = 0; at < continuations.length; at += 2) parts.push(NEWLINE, data.subarray(continuations[at], continuations[at + 1]));
  return { name, value: Buffer.concat(parts) };
}

const NEWLINE = Buffer.from('\n');

/** Names of the headers git writes, by length: shared instead of decoded for every object. */
const KNOWN_NAMES: ReadonlyMap<number, ReadonlyArray<{ name: string; bytes: Buffer }>> = (() => {
  const names = ['tree', 'parent', 'author', 'committer', 'encoding', 'gpgsig', 'gpgsig-sha256', 'mergetag', 'object', 'type', 'tag', 'tagger'];
  const byLength = new Map<number, Array<{ name: string; bytes: Buffer }>>();
  for (const name of names) {
    const list = byLength.get(name.length) ?? [];
    list.push({ name, bytes: Buffer.from(name, 'latin1') });
    byLength.set(name.length, list);
  }
  return byLength;
})();

/** The header name in `data[start, end)`, decoded as Latin-1 like any header byte. */
function headerName(data: Buffer, start: number, end: number): string {
  for (const known of KNOWN_NAMES.get(end - start) ?? []) {
    if (bytesAt(data, start, known.bytes)) return known.name;
  }
  return data.toString('latin1', start, end);
}

function bytesAt(data: Buffer, start: number, bytes: Buffer): boolean {
  for (let index = 0; index < bytes.length; index++) if (data[start + index] !== bytes[index]) return false;
  return true;
}

function findHeaderEnd(data: Buffer): { headerEnd: number; messageStart: number } {
  const blank = data.indexOf('\n\n');
  if (blank >= 0) return { headerEnd: blank, messageStart: blank + 2 };
  // No message: the header block may end with or without a final newline.
  const end = data.length > 0 && data[data.length - 1] === 0x0a ? data.length - 1 : data.length;
  return { headerEnd: end, messageStart: data.length };
}
