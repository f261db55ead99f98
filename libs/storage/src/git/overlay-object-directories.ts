/**
 * Object directories of our own that git reads next to a repository's own (as
 * `GIT_ALTERNATE_OBJECT_DIRECTORIES`), keyed by git directory: where the server keeps a
 * commit-graph for a repository whose storage has none (commit-graph-overlays.ts). They hold
 * no objects, so object reads are unchanged; git takes the first commit-graph it finds along
 * its object directories, the repository's own first.
 */
const overlays = new Map<string, string>();

/** Makes every git process started on `gitDir` from now on read `objectDir` too. */
export function addOverlayObjectDirectory(gitDir: string, objectDir: string): void {
  overlays.set(gitDir, objectDir);
}

/** Undoes {@link addOverlayObjectDirectory} when `objectDir` is still the one in use. */
export function removeOverlayObjectDirectory(gitDir: string, objectDir: string): void {
  if (overlays.get(gitDir) === objectDir) overlays.delete(gitDir);
}

/**
 * The environment entries that make git read `gitDir`'s overlay, if it has one.
 * @returns `{ GIT_ALTERNATE_OBJECT_DIRECTORIES }` or an empty object
 */
export function overlayEnvironment(gitDir: string): Record<string, string> {
  const objectDir = overlays.get(gitDir);
  return objectDir === undefined ? {} : { GIT_ALTERNATE_OBJECT_DIRECTORIES: objectDir };
}

/** The overlay object directory git reads for `gitDir`, if it has one. */
export function overlayObjectDirectory(gitDir: string): string | undefined {
  return overlays.get(gitDir);
}
