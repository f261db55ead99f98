/**
 * Author/committer/tagger lines: `<name> <<email>> <seconds> <±hhmm>` (git's object format).
 */

/** A person and time as stored in commit and tag headers. */
export interface GitSignature {
  readonly name: string;
  readonly email: string;
  /** Seconds since the epoch. */
  readonly time: number;
  /** Timezone offset as written, e.g. `+0000`, `-0130`. */
  readonly offset: string;
}

const OFFSET_PATTERN = /^[+-][0-9]{4}$/;

/**
 * Renders a signature line value (without the `author `/`committer ` keyword).
 * @param signature - the person and time
 * @returns `name <email> time offset`
 * @throws Error when a field would break the line format (`<`, `>` or newline in a name,
 * non-integer time, malformed offset)
 */
export function formatSignature(signature: GitSignature): string {
  const { name, email, time, offset } = signature;
  if (/[<>\n\0]/.test(name) || /[<>\n\0]/.test(email)) {
    throw new Error('signature name/email must not contain <, >, NUL or newline');
  }
  if (!Number.isSafeInteger(time)) throw new Error('signature time must be an integer');
  if (!OFFSET_PATTERN.test(offset)) throw new Error('signature offset must look like +0000');
  return `${name} <${email}> ${time} ${offset}`;
}

/**
 * Parses a signature line value leniently, like libgit2: the email lies between the last
 * `<` and the last `>`; a missing or malformed time gives 0 and offset `+0000`.
 * @param text - the header value after `author `/`committer `/`tagger `
 * @returns the parsed signature
 */
export function parseSignature(text: string): GitSignature {
  const close = text.lastIndexOf('>');
  const open = close < 0 ? -1 : text.lastIndexOf('<', close);
  if (open < 0) return { name: text.trim(), email: '', time: 0, offset: '+0000' };
  const name = text.slice(0, open).trim();
  const email = text.slice(open + 1, close);
  // What git writes, ` <seconds> <±hhmm>`, read without the general path's trim and split:
  // every commit of a history has two signatures.
  const offsetStart = text.length - 5;
  if (isPlainTime(text, close + 1, offsetStart - 1) && isOffsetAt(text, offsetStart)) {
    return { name, email, time: Number(text.slice(close + 2, offsetStart - 1)), offset: text.slice(offsetStart) };
  }
  const [timeText, offsetText] = text
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  const time = timeText !== undefined && /^-?[0-9]+$/.test(timeText) ? Number(timeText) : 0;
  const offset = offsetText !== undefined && OFFSET_PATTERN.test(offsetText) ? offsetText : '+0000';
  return { name, email, time, offset };
}

/** `text[start, end)` is one space then an optionally negative decimal number. */
function isPlainTime(text: string, start: number, end: number): boolean {
  if (text.charCodeAt(start) !== 0x20 || text.charCodeAt(end) !== 0x20) return false;
  let at = start + 1;
  if (text.charCodeAt(at) === 0x2d) at += 1;
  if (at >= end) return false;
  for (; at < end; at++) if (!isDigit(text.charCodeAt(at))) return false;
  return true;
}

/** `text` ends at `start` + 5 with a sign and four digits. */
function isOffsetAt(text: string, start: number): boolean {
  const sign = text.charCodeAt(start);
  if (sign !== 0x2b && sign !== 0x2d) return false;
  for (let at = start + 1; at < start + 5; at++) if (!isDigit(text.charCodeAt(at))) return false;
  return true;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}
