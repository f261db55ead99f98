import type { GitObjectType } from '../objects/object-type.js';
import type { Oid } from '../objects/oid.js';
import { toBytes } from './serialize-commit.js';
import { formatSignature, type GitSignature } from './signature.js';

/** Everything that determines an annotated tag object's bytes. */
export interface TagInput {
  /** The tagged object. */
  readonly object: Oid;
  readonly type: GitObjectType;
  /** Tag name without `refs/tags/`. */
  readonly tag: string;
  /** Omitted only for very old tags; git always writes one. */
  readonly tagger?: GitSignature;
  /** Message, written verbatim (a signature, if any, is part of the message). */
  readonly message: string | Uint8Array;
}

/**
 * Serializes an annotated tag object exactly (git's tag format):
 * `object`, `type`, `tag`, `tagger`, a blank line, then the message bytes unchanged.
 * @param input - tag fields
 * @returns the tag content (without object header)
 * @throws Error when the tag name contains whitespace or the tagger is malformed
 */
export function serializeTag(input: TagInput): Buffer {
  if (input.tag === '' || /[\s\0]/.test(input.tag)) throw new Error('invalid tag name');
  let head = `object ${input.object}\ntype ${input.type}\ntag ${input.tag}\n`;
  if (input.tagger !== undefined) head += `tagger ${formatSignature(input.tagger)}\n`;
  return Buffer.concat([Buffer.from(`${head}\n`, 'utf8'), toBytes(input.message)]);
}
