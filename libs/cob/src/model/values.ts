/**
 * Value types shared by issue and patch actions (docs/node-home.md §7 "Common shapes"), validated
 * the way the node deserialises them.
 */
import { type Did, parseDid, RejectedError } from '@forge-httpd/identity';
import type { Oid } from '@forge-httpd/storage';
import { asObject, type JsonObject, readOptionalString, readString, readUnsigned, toOid } from './json-fields.js';

/** A file attached to a comment or description: `content` is a URI such as `git:<blob oid>`. */
export interface Embed {
  readonly name: string;
  readonly content: string;
}

/** A line or character range of a code location. */
export type CodeRange =
  | { readonly type: 'lines'; readonly range: { readonly start: number; readonly end: number } }
  | { readonly type: 'chars'; readonly line: number; readonly range: { readonly start: number; readonly end: number } };

/** Where a review comment or reaction points in a revision's diff. */
export interface CodeLocation {
  readonly commit: Oid;
  readonly path: string;
  readonly old: CodeRange | null;
  readonly new: CodeRange | null;
}

// Emoji blocks accepted as reactions (radicle `Reaction::new`).
const REACTION_RANGES: readonly (readonly [number, number])[] = [
  [0x1f600, 0x1f64f],
  [0x1fa75, 0x1fa77],
  [0x1fac0, 0x1fac6],
  [0x1fae0, 0x1faf8],
  [0x1f300, 0x1f5ff],
  [0x2700, 0x27bf],
  [0x1f900, 0x1f9ff],
  [0x1f680, 0x1f6ff],
];

// Rust's `char::is_whitespace` (Unicode White_Space), which differs slightly from JS `\s`.
const WHITESPACE = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/u;

/** Whether text is exactly one emoji character of the accepted blocks. */
export function isReaction(text: string): boolean {
  const chars = [...text];
  const code = chars.length === 1 ? ((chars[0] as string).codePointAt(0) ?? 0) : -1;
  return REACTION_RANGES.some(([low, high]) => code >= low && code <= high);
}

/** Parses a reaction value. */
export function toReaction(value: unknown): string {
  if (typeof value !== 'string' || !isReaction(value)) throw new RejectedError('invalid reaction');
  return value;
}

/** Whether text is a valid label: non-empty, no whitespace. */
export function isLabel(text: string): boolean {
  return text !== '' && !WHITESPACE.test(text);
}

/** Parses a label value. */
export function toLabel(value: unknown): string {
  if (typeof value !== 'string' || !isLabel(value)) throw new RejectedError('invalid label');
  return value;
}

/** Parses a DID value (assignees). */
export function toDid(value: unknown): Did {
  if (typeof value !== 'string') throw new RejectedError('invalid did');
  try {
    return parseDid(value);
  } catch {
    throw new RejectedError('invalid did');
  }
}

/** Parses an embed value. */
export function toEmbed(value: unknown): Embed {
  const object = asObject(value, 'embed');
  return { name: readString(object, 'name'), content: readString(object, 'content') };
}

/** Parses an optional code location (`Option<CodeLocation>`). */
export function toCodeLocation(value: unknown): CodeLocation | null {
  if (value === undefined || value === null) return null;
  const object = asObject(value, 'location');
  return {
    commit: toOid(object['commit'], 'location.commit'),
    path: readString(object, 'path'),
    old: toCodeRange(object['old']),
    new: toCodeRange(object['new']),
  };
}

function toCodeRange(value: unknown): CodeRange | null {
  if (value === undefined || value === null) return null;
  const object = asObject(value, 'range');
  const range = toRange(object['range']);
  switch (readOptionalString(object, 'type')) {
    case 'lines':
      return { type: 'lines', range };
    case 'chars':
      return { type: 'chars', line: readUnsigned(object, 'line'), range };
    default:
      throw new RejectedError('invalid code range type');
  }
}

function toRange(value: unknown): { start: number; end: number } {
  const object: JsonObject = asObject(value, 'range');
  return { start: readUnsigned(object, 'start'), end: readUnsigned(object, 'end') };
}
