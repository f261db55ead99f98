import { InvalidDataError } from '@forge-httpd/identity';
import { isUtf8 } from 'node:buffer';
import type { GitCommit } from './git-objects.js';
import { parseObjectHeaders, type GitHeader } from '../objects/object-headers.js';
import type { Oid } from '../objects/oid.js';
import { parseSignature } from './signature.js';

/**
 * Parses a commit object (git's commit format): `tree`, `parent`×N, `author`, `committer`,
 * then any other headers, a blank line and the message.
 * @param oid - the commit's id (copied into the result)
 * @param data - the commit content
 * @returns the parsed commit; unknown headers are kept in `headers`
 * @throws InvalidDataError when tree, author or committer is missing or an id is malformed
 */
export function parseCommit(oid: Oid, data: Buffer): GitCommit {
  const { headers, message } = parseObjectHeaders(data);
  let tree: Oid | undefined;
  let author: Buffer | undefined;
  let committer: Buffer | undefined;
  const parents: Oid[] = [];
  const extra: GitHeader[] = [];
  for (const { name, value } of headers) {
    if (name === 'tree' && tree === undefined) tree = headerOid(value);
    else if (name === 'parent') parents.push(headerOid(value));
    else if (name === 'author' && author === undefined) author = value;
    else if (name === 'committer' && committer === undefined) committer = value;
    else extra.push({ name, value: value.toString('utf8') });
  }
  if (tree === undefined || author === undefined || committer === undefined) {
    throw new InvalidDataError('object', `commit ${oid} lacks tree, author or committer`);
  }
  return {
    oid,
    tree,
    parents,
    author: parseSignature(author.toString('utf8')),
    committer: parseSignature(committer.toString('utf8')),
    message: message.toString('utf8'),
    rawMessage: message,
    headers: extra,
    isUtf8: isUtf8(author) && isUtf8(committer) && isUtf8(message),
  };
}

/**
 * Reads a header value that must be an object id.
 * @param value - raw header value
 * @returns the id
 * @throws InvalidDataError when it is not 40 lower-case hex characters
 */
export function headerOid(value: Buffer): Oid {
  // Checked on the bytes: decoding every id first and matching it with a regular expression
  // was about a fifth of a commit's parse.
  if (value.length !== 40 || !isLowerHex(value)) throw new InvalidDataError('object', 'malformed object id in object header');
  return value.toString('latin1') as Oid;
}

function isLowerHex(bytes: Buffer): boolean {
  for (let index = 0; index < bytes.length; index++) {
    const byte = bytes[index] as number;
    if (!((byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66))) return false;
  }
  return true;
}
