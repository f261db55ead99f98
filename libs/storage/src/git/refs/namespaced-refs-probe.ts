/**
 * A quick look at a repository's ref files, before anything asks git for a listing: whether
 * any peer namespace may hold refs under a sub-path (e.g. `refs/cobs/`). Background work over
 * thousands of repositories (the server's COB evaluation after start-up) skips those that
 * certainly have none without starting a process for each.
 */
import { closeSync, openSync, readdirSync, readSync, type Stats, statSync } from 'node:fs';
import path from 'node:path';
import { BoundedCache } from '@forge-httpd/bounded-cache';

const NAMESPACES = 'refs/namespaces';

/**
 * Whether `refs/namespaces/<any>/<under>…` may exist, remembering what each repository's
 * `packed-refs` answered: a big tracker's file is megabytes, and repository info asks on
 * every request. One per runtime.
 */
export class NamespacedRefsProbe {
  /** Answers per repository and sub-paths, with the version of `packed-refs` they were read from. */
  private readonly packedAnswers = new BoundedCache<string, { readonly version: string; readonly answer: boolean }>({ maxEntries: 4096 });

  /**
   * Whether `refs/namespaces/<any>/<under>…` may exist for any of `unders`: false only when no
   * namespace has a loose-ref directory there and `packed-refs` names no such ref. True when
   * unsure (a file that cannot be read), so a caller then asks git.
   * @param gitDir - a repository of the storage (never a path from user input)
   * @param unders - sub-paths below a namespace, each ending in `/` (e.g. `refs/cobs/`)
   */
  mayHaveNamespacedRefs(gitDir: string, unders: readonly string[]): boolean {
    for (const under of unders) {
      if (!under.endsWith('/') || under.startsWith('/') || under.split('/').includes('..')) throw new Error(`not a ref sub-path: ${under}`);
    }
    const namespaces = listDirectory(path.join(gitDir, NAMESPACES));
    if (namespaces === undefined) return true;
    for (const namespace of namespaces) {
      for (const under of unders) if (isDirectory(path.join(gitDir, NAMESPACES, namespace, under)) !== false) return true;
    }
    return this.packedRefsName(gitDir, unders) !== false;
  }

  /**
   * Whether `packed-refs` names a ref under one of `unders` in some namespace (false when there
   * is no such file, undefined when it cannot be read). Read again only when the file's inode,
   * size or modification time changed: git replaces it by renaming a new file over it.
   */
  private packedRefsName(gitDir: string, unders: readonly string[]): boolean | undefined {
    const file = path.join(gitDir, 'packed-refs');
    let stats: Stats | undefined;
    try {
      stats = statSync(file, { throwIfNoEntry: false });
    } catch {
      return undefined;
    }
    if (stats === undefined) return false;
    const key = `${gitDir}\0${unders.join('\0')}`;
    const version = `${stats.ino}:${stats.size}:${stats.mtimeMs}`;
    const known = this.packedAnswers.get(key);
    if (known?.version === version) return known.answer;
    // Lines are `<oid> refs/namespaces/<ns>/<under>…`; peeled lines (`^<oid>`) carry no name.
    const answer = fileIncludesAny(
      file,
      unders.map((under) => `/${under}`),
    );
    if (answer === undefined) return undefined;
    this.packedAnswers.set(key, { version, answer });
    return answer;
  }
}

/** Bytes of a file read at a time by {@link fileIncludesAny}. */
const SCAN_CHUNK_BYTES = 64 * 1024;

/**
 * Whether the file holds one of `needles` (Latin-1), read a chunk at a time: false when the
 * file is absent, undefined when it cannot be read.
 *
 * Why: a big tracker's `packed-refs` read whole became a buffer and a string of megabytes for
 * one search.
 * @param chunkBytes - bytes per read (tests use few); at least the longest needle
 */
export function fileIncludesAny(file: string, needles: readonly string[], chunkBytes = SCAN_CHUNK_BYTES): boolean | undefined {
  const wanted = needles.map((needle) => Buffer.from(needle, 'latin1'));
  const overlap = Math.max(0, ...wanted.map((needle) => needle.length - 1));
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? false : undefined;
  }
  try {
    // Each read lands after the last `overlap` bytes of the one before, so a needle cut by a
    // chunk's end is found whole in the next window.
    const window = Buffer.allocUnsafe(overlap + Math.max(chunkBytes, overlap + 1));
    let kept = 0;
    for (;;) {
      const read = readSync(fd, window, kept, window.length - kept, null);
      if (read === 0) return false;
      const filled = window.subarray(0, kept + read);
      if (wanted.some((needle) => filled.includes(needle))) return true;
      kept = Math.min(overlap, filled.length);
      filled.copy(window, 0, filled.length - kept);
    }
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Entry names; [] when absent; undefined when unreadable. */
function listDirectory(dir: string): string[] | undefined {
  try {
    return readdirSync(dir);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? [] : undefined;
  }
}

/**
 * Whether a directory exists there; undefined when it cannot be told (a loop of links, no
 * permission, an I/O error). A path through a file (ENOTDIR) holds no directory: Node 20
 * throws for it even with `throwIfNoEntry: false` and Node 22 does not, so both are decided here.
 */
function isDirectory(dir: string): boolean | undefined {
  try {
    return statSync(dir).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? false : undefined;
  }
}
