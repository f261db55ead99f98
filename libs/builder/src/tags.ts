import { type Oid } from '@forge-httpd/storage';
import { serializeTag, updateRefs, writeObject } from '@forge-httpd/storage/write';
import { namespacedRef, resignRefs, type BuiltRepository } from './built-repository.js';
import type { HomeContext, Peer } from './node-home.js';
import { utcSignature } from './objects.js';

/** A tag to create: annotated when it has a message, lightweight otherwise. */
export interface TagSpec {
  /** Name without `refs/tags/`. */
  readonly name: string;
  readonly target: Oid;
  /** Annotated tag message (a final newline is added, like `git tag -m`). */
  readonly message?: string;
}

/**
 * Creates tags in a peer's namespace (annotated tag objects tagged by the peer at the clock's
 * time) and re-signs its refs. With `canonical`, the tags are also written at top level, as a
 * node does for tags that reached quorum under an `xyz.<flavour>.crefs` rule (§3.4).
 * @returns the ref target of each tag (tag object or commit), by tag name
 */
export async function createTags(
  context: HomeContext,
  repo: BuiltRepository,
  options: { peer: Peer; tags: readonly TagSpec[]; canonical?: boolean },
): Promise<Map<string, Oid>> {
  const { peer } = options;
  const written = new Map<string, Oid>();
  for (const tag of options.tags) {
    const target =
      tag.message === undefined
        ? tag.target
        : await writeObject(
            repo.gitDir,
            'tag',
            serializeTag({
              object: tag.target,
              type: 'commit',
              tag: tag.name,
              tagger: utcSignature(peer.alias, `${peer.alias}@${peer.keyPair.nid}`, context.clock.tick()),
              message: `${tag.message}\n`,
            }),
          );
    written.set(tag.name, target);
  }
  const updates = [...written].flatMap(([name, oid]) => [
    { name: namespacedRef(peer.keyPair.nid, `refs/tags/${name}`), oid },
    ...(options.canonical === true ? [{ name: `refs/tags/${name}`, oid }] : []),
  ]);
  await updateRefs(repo.gitDir, updates);
  await resignRefs(context, repo, peer);
  return written;
}
