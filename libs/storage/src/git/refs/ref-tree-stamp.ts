/**
 * A `stat` stamp of some ref folders of a bare repository: `packed-refs` plus every directory
 * under the folders. Git replaces ref files by rename, so any loose ref added, moved or deleted
 * changes its directory's times, and packed refs change `packed-refs`; an unchanged stamp
 * means unchanged refs (when settled, see {@link SETTLE_MS}).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { BoundedCache } from '@forge-httpd/bounded-cache';
import { isSettled, SETTLE_MS, statPart, statQuiet } from '../objects/stat-stamp.js';

/** A stamp and whether it can be trusted to mean "unchanged" while it stays equal. */
export interface RefsStamp {
  readonly key: string;
  /** False while something stamped changed less than {@link SETTLE_MS} ago. */
  readonly settled: boolean;
}

/** Remembered directories at most (least recently used forgotten first). */
const MAX_REMEMBERED = 4096;

/**
 * Stamps ref folders. Each directory's subdirectories are remembered while its own stamp is
 * unchanged, so a walk over unchanged folders costs one `stat` per directory and no `readdir`.
 * Only settled listings are remembered: a subdirectory created in the same clock tick as the
 * `readdir` would leave the directory's stamp unchanged.
 */
export class RefTreeStamper {
  private readonly subdirectories = new BoundedCache<string, { readonly part: string; readonly names: readonly string[] }>({
    maxEntries: MAX_REMEMBERED,
  });

  /** @param now - the clock file times are compared with (ms since the epoch; tests move it ahead) */
  constructor(private readonly now: () => number = Date.now) {}

  /**
   * @param gitDir - the bare repository
   * @param folders - validated ref folders relative to it, e.g. `refs/heads`; a file (`HEAD`)
   *   is stamped by itself
   */
  stamp(gitDir: string, folders: readonly string[]): RefsStamp {
    const limit = this.now() - SETTLE_MS;
    const packed = statQuiet(`${gitDir}${path.sep}packed-refs`);
    const walk = { parts: [statPart(packed)], settled: isSettled(packed, limit), limit };
    for (const folder of folders) this.walk(`${gitDir}${path.sep}${folder.split('/').join(path.sep)}`, walk);
    return { key: walk.parts.join('|'), settled: walk.settled };
  }

  private walk(dir: string, walk: { parts: string[]; settled: boolean; limit: number }): void {
    const stats = statQuiet(dir);
    const part = statPart(stats);
    walk.parts.push(part);
    // Judged before the kind: a file named among the folders (such as `HEAD`) must settle too.
    const settled = isSettled(stats, walk.limit);
    walk.settled &&= settled;
    if (stats === undefined || !stats.isDirectory()) return;
    for (const name of this.subdirectoriesOf(dir, part, settled)) this.walk(`${dir}${path.sep}${name}`, walk);
  }

  private subdirectoriesOf(dir: string, part: string, settled: boolean): readonly string[] {
    const known = this.subdirectories.get(dir);
    if (known?.part === part) return known.names;
    let names: string[];
    try {
      names = readdirSync(dir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort();
    } catch {
      names = [];
    }
    if (settled) {
      this.subdirectories.set(dir, { part, names });
    } else {
      this.subdirectories.delete(dir);
    }
    return names;
  }
}
