import { parseRid } from '@forge-httpd/identity';

/** Longest repository alias name, in characters. */
export const MAX_REPOSITORY_ALIAS_LENGTH = 64;

const ALIAS_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * Whether `name` may name a repository in place of its RID (docs/api.md, "Repository
 * aliases"): 1–64 ASCII letters, digits, `.`, `_` or `-`, starting with a letter or a digit,
 * not ending in `.git` (the git URLs' suffix), none of `api`, `raw`, `search`, and not itself
 * readable as a RID, so a RID in a path always means that RID.
 */
export function isRepositoryAliasName(name: string): boolean {
  if (name.length > MAX_REPOSITORY_ALIAS_LENGTH || !ALIAS_NAME.test(name)) return false;
  const lower = name.toLowerCase();
  // Path segments that already mean something where a `{rid}` stands (`/repos/search`, `/api`, `/raw`).
  if (lower.endsWith('.git') || lower === 'api' || lower === 'raw' || lower === 'search') return false;
  try {
    parseRid(name);
    return false;
  } catch {
    return true;
  }
}
