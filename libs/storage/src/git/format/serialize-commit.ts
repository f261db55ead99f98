import type { GitHeader } from '../objects/object-headers.js';
import { formatHeader } from '../objects/object-headers.js';
import type { Oid } from '../objects/oid.js';
import { formatSignature, type GitSignature } from './signature.js';

/** Everything that determines a commit object's bytes. */
export interface CommitInput {
  readonly tree: Oid;
  /** Parent ids, one `parent` line each, in this order. */
  readonly parents: readonly Oid[];
  readonly author: GitSignature;
  readonly committer: GitSignature;
  /** Extra headers after `committer` (e.g. `gpgsig`), in this order. */
  readonly headers?: readonly GitHeader[];
  /** Message, written verbatim: the caller decides on a trailing newline. */
  readonly message: string | Uint8Array;
}

/**
 * Serializes a commit object exactly (git's commit format, docs/node-home.md §5 and §6.2):
 * `tree`, `parent`×N, `author`, `committer`, extra headers with continuation lines prefixed
 * by one space, a blank line, then the message bytes unchanged.
 * @param input - commit fields
 * @returns the commit content (without object header)
 * @throws Error when a field cannot be represented (see {@link formatSignature})
 */
export function serializeCommit(input: CommitInput): Buffer {
  let head = `tree ${input.tree}\n`;
  for (const parent of input.parents) head += `parent ${parent}\n`;
  head += `author ${formatSignature(input.author)}\n`;
  head += `committer ${formatSignature(input.committer)}\n`;
  for (const header of input.headers ?? []) head += formatHeader(header);
  return Buffer.concat([Buffer.from(`${head}\n`, 'utf8'), toBytes(input.message)]);
}

/** Converts a message given as text (UTF-8) or bytes to bytes. */
export function toBytes(message: string | Uint8Array): Buffer {
  return typeof message === 'string' ? Buffer.from(message, 'utf8') : Buffer.from(message);
}
