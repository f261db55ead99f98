import { InvalidDataError } from '@forge-httpd/identity';
import { isUtf8 } from 'node:buffer';
import type { GitTag } from './git-objects.js';
import { parseObjectHeaders, type GitHeader } from '../objects/object-headers.js';
import { isGitObjectType } from '../objects/object-type.js';
import type { Oid } from '../objects/oid.js';
import { headerOid } from './parse-commit.js';
import { parseSignature, type GitSignature } from './signature.js';

/**
 * Parses an annotated tag object (git's tag format): `object`, `type`, `tag`, optional
 * `tagger`, a blank line and the message (which includes any signature).
 * @param oid - the tag's id
 * @param data - the tag content
 * @returns the parsed tag
 * @throws InvalidDataError when object, type or tag is missing or malformed
 */
export function parseTag(oid: Oid, data: Buffer): GitTag {
  const { headers, message } = parseObjectHeaders(data);
  let object: Oid | undefined;
  let type: string | undefined;
  let tag: string | undefined;
  let tagger: GitSignature | null = null;
  let textIsUtf8 = isUtf8(message);
  const extra: GitHeader[] = [];
  for (const { name, value } of headers) {
    if (name === 'object' && object === undefined) object = headerOid(value);
    else if (name === 'type' && type === undefined) type = value.toString('latin1');
    else if (name === 'tag' && tag === undefined) tag = value.toString('utf8');
    else if (name === 'tagger' && tagger === null) tagger = parseSignature(value.toString('utf8'));
    else extra.push({ name, value: value.toString('utf8') });
    if (name === 'tag' || name === 'tagger') textIsUtf8 &&= isUtf8(value);
  }
  if (object === undefined || type === undefined || !isGitObjectType(type) || tag === undefined) {
    throw new InvalidDataError('object', `tag ${oid} lacks object, type or tag`);
  }
  return {
    oid,
    object,
    type,
    tag,
    tagger,
    message: message.toString('utf8'),
    rawMessage: message,
    headers: extra,
    isUtf8: textIsUtf8,
  };
}
