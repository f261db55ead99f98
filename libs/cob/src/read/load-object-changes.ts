import type { GitRepository, Oid, ReadOptions } from '@forge-httpd/storage';
import type { Change } from '../change.js';
import { loadChange, type ManifestCache } from './load-change.js';

/** Loaded changes by commit id (null = unloadable); commits are immutable, so this never goes stale. */
export type ChangeCache = Map<Oid, Promise<Change | null>>;

/**
 * Walks an object's history from its tips (docs/node-home.md §6.5 step 2), loading changes of
 * `typeName`. A change that cannot be loaded, or has another type, is skipped and its history
 * is not walked through it. Each wave of the walk is read concurrently (git reads pipeline).
 * @param args.git - the repository
 * @param args.tips - the object's ref tips
 * @param args.typeName - the expected manifest type
 * @param args.cache - shared change cache
 * @param args.manifests - decoded manifests, shared by every repository's loads
 * @param args.reads - how objects are read (default: {@link loadChange}'s)
 * @returns every loaded change
 */
export async function loadObjectChanges(args: {
  git: GitRepository;
  tips: readonly Oid[];
  typeName: string;
  cache: ChangeCache;
  manifests: ManifestCache;
  reads?: ReadOptions;
}): Promise<Change[]> {
  const { git, typeName, cache, manifests, reads } = args;
  const seen = new Set<Oid>();
  const loaded: Change[] = [];
  let frontier = [...new Set(args.tips)];
  while (frontier.length > 0) {
    frontier.forEach((id) => seen.add(id));
    const changes = await Promise.all(frontier.map((id) => cachedChange({ git, id, cache, manifests, reads })));
    const next: Oid[] = [];
    for (const change of changes) {
      if (change === null || change.typeName !== typeName) continue;
      loaded.push(change);
      for (const parent of change.parents) if (!seen.has(parent)) next.push(parent);
    }
    frontier = [...new Set(next)];
  }
  return loaded;
}

function cachedChange(args: {
  git: GitRepository;
  id: Oid;
  cache: ChangeCache;
  manifests: ManifestCache;
  reads: ReadOptions | undefined;
}): Promise<Change | null> {
  const { git, id, cache, manifests, reads } = args;
  let pending = cache.get(id);
  if (pending === undefined) {
    pending = loadChange(git, id, manifests, reads);
    cache.set(id, pending);
    // A failed read (e.g. git died) must not poison the cache.
    pending.catch(() => cache.delete(id));
  }
  return pending;
}
