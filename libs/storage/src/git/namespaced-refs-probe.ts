/**
 * A quick look at a repository's ref files, before anything asks git for a listing: whether
 * any peer namespace may hold refs under a sub-path (e.g. `refs/cobs/`). Background work over
 * thousands of repositories (the server's COB evaluation after start-up) skips those that
 * certainly have none without starting a process for each.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const NAMESPACES = 'refs/namespaces';

/**
 * Whether `refs/namespaces/<any>/<under>…` may exist for any of `unders`: false only when no
 * namespace has a loose-ref directory there and `packed-refs` names no such ref. True when
 * unsure (a file that cannot be read), so a caller then asks git.
 * @param gitDir - a repository of the storage (never a path from user input)
 * @param unders - sub-paths below a namespace, each ending in `/` (e.g. `refs/cobs/`)
 */
export function mayHaveNamespacedRefs(gitDir: string, unders: readonly string[]): boolean {
  for (const under of unders) {
    if (!under.endsWith('/') || under.startsWith('/') || under.split('/').includes('..')) throw new Error(`not a ref sub-path: ${under}`);
  }
  const namespaces = listDirectory(path.join(gitDir, NAMESPACES));
  if (namespaces === undefined) return true;
  for (const namespace of namespaces) {
    for (const under of unders) if (isDirectory(path.join(gitDir, NAMESPACES, namespace, under)) !== false) return true;
  }
  const packed = readPackedRefs(gitDir);
  // Lines are `<oid> refs/namespaces/<ns>/<under>…`; peeled lines (`^<oid>`) carry no name.
  return packed === undefined || unders.some((under) => packed.includes(`/${under}`));
}

/** Entry names; [] when absent; undefined when unreadable. */
function listDirectory(dir: string): string[] | undefined {
  try {
    return readdirSync(dir);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? [] : undefined;
  }
}

/** Whether a directory exists there; undefined when it cannot be told. */
function isDirectory(dir: string): boolean | undefined {
  try {
    return statSync(dir, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return undefined;
  }
}

/** The `packed-refs` text ('' when absent), undefined when unreadable. */
function readPackedRefs(gitDir: string): string | undefined {
  try {
    return readFileSync(path.join(gitDir, 'packed-refs'), 'latin1');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? '' : undefined;
  }
}
