/**
 * Ref-name globs as libgit2 matches them for canonical-ref rules (docs/radicle-httpd.md §4.1): without
 * the path-name flag, so `*` also matches `/`; `?` matches one character; everything else is
 * literal (rule patterns cannot contain other glob syntax, §3.4).
 */

const GLOB_CHARS = /[*?]/;

/** Whether a rule pattern holds glob characters (otherwise it names exactly one ref). */
export function isRefGlob(pattern: string): boolean {
  return GLOB_CHARS.test(pattern);
}

/** Compiles a rule pattern such as `refs/tags/*` into an anchored regular expression. */
export function compileRefGlob(pattern: string): RegExp {
  let source = '';
  for (const char of pattern) {
    if (char === '*') source += '.*';
    else if (char === '?') source += '.';
    else source += char.replace(/[.+^${}()|[\]\\/-]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 's');
}

/**
 * The longest directory prefix (ending in `/`) that every match of `pattern` starts with, so
 * refs can be listed under it instead of listing the whole repository.
 */
export function refGlobPrefix(pattern: string): string {
  const glob = pattern.search(GLOB_CHARS);
  const literal = glob < 0 ? pattern : pattern.slice(0, glob);
  return literal.slice(0, literal.lastIndexOf('/') + 1);
}
