import { statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { compareRids, parseRid, type Rid, ridDirectoryName } from '@forge-httpd/identity';
import { openGitRepository } from '../git/open-git-repository.js';
import { StoredRepository } from '../repository/stored-repository.js';
import type { Flavour } from './flavour.js';

function isDirectory(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}

/** The RID a `storage/` entry names, or null when it is not a repository directory (§1). */
function ridOfEntry(name: string): Rid | null {
  if (name.startsWith('.') || path.extname(name) === '.lock') return null;
  try {
    const rid = parseRid(name);
    // Only the canonical directory name is one `openRepository` would find again.
    return ridDirectoryName(rid) === name ? rid : null;
  } catch {
    return null;
  }
}

/**
 * The node's `storage/` directory: one bare git repository per RID (storage-format §1, §3).
 * Opened repositories are kept (one {@link StoredRepository}, hence one git reader, per RID)
 * so their memoised data survives between requests.
 */
export class Storage {
  private readonly repositories = new Map<Rid, StoredRepository>();

  constructor(
    readonly root: string,
    private readonly flavour: Flavour,
  ) {}

  /**
   * RIDs of the repositories in storage, sorted by raw RID bytes: directories that are not
   * hidden, not `*.lock` and named by a RID. Other entries are ignored (heartwood would fail
   * the whole listing on a stray name; one stray directory should not hide every repository).
   */
  async listRepositoryIds(): Promise<Rid[]> {
    let entries: string[];
    try {
      entries = await readdir(this.root);
    } catch {
      return [];
    }
    const rids = entries
      .map((name) => ({ name, rid: ridOfEntry(name) }))
      .filter((entry): entry is { name: string; rid: Rid } => entry.rid !== null)
      .filter((entry) => isDirectory(path.join(this.root, entry.name)))
      .map((entry) => entry.rid);
    return rids.sort(compareRids);
  }

  /**
   * Opens the repository `rid` (`rad:z…` or `z…`), or returns null when storage has no such
   * directory. Loading its identity document happens lazily, on first use.
   * @throws InvalidRidError when `rid` is malformed
   */
  async openRepository(rid: string): Promise<StoredRepository | null> {
    const canonical = parseRid(rid);
    const gitDir = path.join(this.root, ridDirectoryName(canonical));
    const cached = this.repositories.get(canonical);
    if (!isDirectory(gitDir)) {
      // Deleted since it was opened: drop the stale reader.
      if (cached) {
        this.repositories.delete(canonical);
        await cached.git.close();
      }
      return null;
    }
    if (cached) return cached;
    const repository = new StoredRepository(canonical, openGitRepository(gitDir), this.flavour);
    this.repositories.set(canonical, repository);
    return repository;
  }

  /** Stops every opened repository's git processes. */
  async close(): Promise<void> {
    const repositories = [...this.repositories.values()];
    this.repositories.clear();
    await Promise.all(repositories.map((repository) => repository.git.close()));
  }
}
