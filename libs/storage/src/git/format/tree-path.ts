/**
 * Splits a repository-relative path into segments. One trailing `/` is allowed (`dir/`);
 * empty, `.` and `..` segments and NUL bytes make the path invalid, so a path can never
 * climb out of the tree or be read by git as anything but a literal name.
 * @param path - `/`-separated path; `''` is the root
 * @returns the segments (`[]` for the root), or null when the path is invalid
 */
export function splitTreePath(path: string): string[] | null {
  const trimmed = path.endsWith('/') ? path.slice(0, -1) : path;
  if (trimmed === '') return [];
  const segments = trimmed.split('/');
  const invalid = segments.some((segment) => segment === '' || segment === '.' || segment === '..' || segment.includes('\0'));
  return invalid ? null : segments;
}
