/**
 * The header block shared by commit and tag objects: `key SP value LF` lines, where a value
 * continues on following lines that start with one space (git's object format; used by
 * `gpgsig` and `mergetag`), then an empty line, then the message bytes verbatim.
 */
import { GitObjectFormatError } from './errors.js';

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
 * @throws GitObjectFormatError when a line is not `key SP value` or a continuation
 */
export function parseObjectHeaders(data: Buffer): ParsedObjectHeaders {
  const split = findHeaderEnd(data);
  // latin1 maps every byte to one char, so slicing the text slices the bytes.
  const text = data.subarray(0, split.headerEnd).toString('latin1');
  const headers: { name: string; value: string }[] = [];
  for (const line of text.split('\n')) {
    const last = headers[headers.length - 1];
    if (line.startsWith(' ') && last !== undefined) {
      last.value += `\n${line.slice(1)}`;
      continue;
    }
    const space = line.indexOf(' ');
    if (space <= 0) throw new GitObjectFormatError('malformed object header line');
    headers.push({ name: line.slice(0, space), value: line.slice(space + 1) });
  }
  return {
    headers: headers.map(({ name, value }) => ({ name, value: Buffer.from(value, 'latin1') })),
    message: data.subarray(split.messageStart),
  };
}

function findHeaderEnd(data: Buffer): { headerEnd: number; messageStart: number } {
  const blank = data.indexOf('\n\n');
  if (blank >= 0) return { headerEnd: blank, messageStart: blank + 2 };
  // No message: the header block may end with or without a final newline.
  const end = data.length > 0 && data[data.length - 1] === 0x0a ? data.length - 1 : data.length;
  return { headerEnd: end, messageStart: data.length };
}
