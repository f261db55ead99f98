/**
 * Object directories of our own that git reads with a repository's own, keyed by git
 * directory: where the server keeps a commit-graph for a repository (commit-graph-overlays.ts).
 * They hold no objects, so object reads are unchanged. git takes the first commit-graph it
 * finds along its object directories, so where ours goes depends on why we keep one:
 * - `after` the repository's own (`GIT_ALTERNATE_OBJECT_DIRECTORIES`) when its storage has no
 *   graph at all: git still takes a graph the storage gains later;
 * - `before` it (`GIT_OBJECT_DIRECTORY` ours, the repository's objects its alternate) when the
 *   storage's graph has no changed-path Bloom filters, which ours adds. A clone's
 *   `upload-pack` is not given that order (see {@link OverlayObjectDirectories.environment}).
 */
import path from 'node:path';

/** Where git reads our object directory: see the module comment. */
export type OverlayPlacement = 'after' | 'before';

interface Overlay {
  readonly objectDir: string;
  readonly placement: OverlayPlacement;
}

/** The overlays of every repository git processes start on (one set per runtime). */
export class OverlayObjectDirectories {
  private readonly overlays = new Map<string, Overlay>();

  /**
   * Makes every git process started on `gitDir` from now on read `objectDir` too.
   * @param placement - default `after`; `before` is refused (false) for a git directory whose
   *   path git could not read from the alternates list (`:` or `"` in it)
   * @returns whether the overlay is in use
   */
  add(gitDir: string, objectDir: string, placement: OverlayPlacement = 'after'): boolean {
    if (placement === 'before' && /[:"\n]/.test(gitDir)) return false;
    this.overlays.set(gitDir, { objectDir, placement });
    return true;
  }

  /** Undoes {@link add} when `objectDir` is still the one in use. */
  remove(gitDir: string, objectDir: string): void {
    if (this.overlays.get(gitDir)?.objectDir === objectDir) this.overlays.delete(gitDir);
  }

  /**
   * The environment entries that make git read `gitDir`'s overlay, if it has one.
   * @param use - `packing` for `upload-pack`: an overlay placed `before` is left out, so the
   *   repository's own object directory stays the one whose packs, bitmaps and graph git
   *   prefers for a clone
   * @returns `{ GIT_ALTERNATE_OBJECT_DIRECTORIES }`, that plus `{ GIT_OBJECT_DIRECTORY }`, or
   *   an empty object
   */
  environment(gitDir: string, use: 'reading' | 'packing' = 'reading'): Record<string, string> {
    const overlay = this.overlays.get(gitDir);
    if (overlay === undefined) return {};
    if (overlay.placement === 'after') return { GIT_ALTERNATE_OBJECT_DIRECTORIES: overlay.objectDir };
    if (use === 'packing') return {};
    return { GIT_OBJECT_DIRECTORY: overlay.objectDir, GIT_ALTERNATE_OBJECT_DIRECTORIES: path.join(gitDir, 'objects') };
  }

  /**
   * The overlay object directory that holds `gitDir`'s graph when the storage has none (placed
   * `after`), for the in-process graph reader. An overlay placed `before` is left out: it
   * differs from the storage's graph by the Bloom filters, which that reader does not use.
   */
  objectDirectory(gitDir: string): string | undefined {
    const overlay = this.overlays.get(gitDir);
    return overlay?.placement === 'after' ? overlay.objectDir : undefined;
  }
}
