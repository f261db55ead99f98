/**
 * Commit trailers as libgit2 `message_trailers` finds them (the last paragraph of the message,
 * when every line of it is `Token: value`), and the two radicle uses (docs/node-home.md §6.2).
 */
import type { Oid } from '@forge-httpd/storage';

/** `Rad-Resource` / `Rad-Related` values of a change commit. */
export interface ChangeTrailers {
  readonly resources: readonly Oid[];
  readonly related: readonly Oid[];
}

const TRAILER_LINE = /^([\p{L}\p{N}-]+):[ \t]*(.*)$/u;
const OID = /^[0-9a-fA-F]{40}$/;

/**
 * Parses the radicle trailers of a commit message.
 * @param message - the commit message
 * @returns the trailers, or null when a `Rad-*` trailer holds no valid oid (the change is unloadable)
 */
export function parseChangeTrailers(message: string): ChangeTrailers | null {
  const resources: Oid[] = [];
  const related: Oid[] = [];
  for (const [token, value] of messageTrailers(message)) {
    if (token !== 'Rad-Resource' && token !== 'Rad-Related') continue;
    if (!OID.test(value)) return null;
    (token === 'Rad-Resource' ? resources : related).push(value.toLowerCase() as Oid);
  }
  return { resources, related };
}

/** Token/value pairs of the message's trailer block (none when the block is not all trailers). */
function messageTrailers(message: string): [string, string][] {
  const paragraphs = message.replace(/\s+$/, '').split(/\n[ \t]*\n/);
  // The subject paragraph never counts as trailers.
  if (paragraphs.length < 2) return [];
  const lines = (paragraphs[paragraphs.length - 1] as string).split('\n');
  const result: [string, string][] = [];
  for (const line of lines) {
    const match = TRAILER_LINE.exec(line);
    if (match === null) return [];
    result.push([match[1] as string, (match[2] as string).trim()]);
  }
  return result;
}
