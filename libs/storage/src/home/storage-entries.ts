import { stat } from 'node:fs/promises';
import { opendir } from 'node:fs/promises';
import path from 'node:path';
import { parseRid, type Rid, ridDirectoryName } from '@forge-httpd/identity';

/** The RID a `storage/` entry names, or null when it is not a repository directory (§1). */
export function ridOfEntry(name: string): Rid | null {
  if (name.startsWith('.') || path.extname(name) === '.lock') return null;
  try {
    const rid = parseRid(name);
    // Only the canonical directory name is one `openRepository` would find again.
    return ridDirectoryName(rid) === name ? rid : null;
  } catch {
    return null;
  }
}

async function isDirectory(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The repository directories of `storage/` by RID (hidden, `*.lock` and non-RID names left
 * out), read with an asynchronous directory stream so a large storage never holds the event
 * loop. Entry types come from the listing itself; only symbolic links cost a `stat`.
 * @returns the directories, or null when `root` cannot be read
 */
export async function listStorageEntries(root: string): Promise<Map<Rid, string> | null> {
  const found = new Map<Rid, string>();
  try {
    for await (const entry of await opendir(root, { bufferSize: 256 })) {
      const rid = ridOfEntry(entry.name);
      if (rid === null) continue;
      const gitDir = path.join(root, entry.name);
      if (entry.isDirectory() || (entry.isSymbolicLink() && (await isDirectory(gitDir)))) found.set(rid, gitDir);
    }
  } catch {
    return null;
  }
  return found;
}
