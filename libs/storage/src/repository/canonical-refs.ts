import { BoundedCache } from '@forge-httpd/bounded-cache';
import { compareUtf8 } from '@forge-httpd/identity';
import { resolveStoredRef } from '../git/refs/resolve-stored-ref.js';
import type { GitRepository, RefEntry } from '../git/git-repository.js';
import type { Oid } from '../git/objects/oid.js';
import { isValidRefPrefix } from '../git/objects/ref-name.js';
import { compileRefGlob, isRefGlob, refGlobPrefix } from './ref-glob.js';

/** A canonical tag (docs/radicle-httpd.md §4.1): annotated tags carry tagger and message. */
export interface CanonicalTag {
  /** The annotated tag's direct target (not peeled further), or the lightweight tag's commit. */
  commit: Oid;
  tagger?: { name: string; email: string; timestamp: number };
  message?: string;
}

/**
 * Canonical refs of a repository. Plain objects whose keys were inserted sorted by ref name
 * bytes (names start with `refs/`, so no key is integer-like and the order holds).
 */
export interface CanonicalRefs {
  /** `refs/tags/…` → tag. */
  tags: Record<string, CanonicalTag>;
  /** Other matching refs → the commit they peel to. */
  refs: Record<string, Oid>;
}

type GitReader = Pick<GitRepository, 'listRefs' | 'resolveRef' | 'readObjectInfo' | 'readTag' | 'peelToCommit'>;

/** What one ref contributes; null = skipped. Immutable per oid, hence cacheable. */
type Resolved = { tag: CanonicalTag | null; commit: Oid | null };

const NAMESPACES = 'refs/namespaces/';
const MAX_CACHED_OBJECTS = 10_000;

/**
 * Reads canonical refs (docs/node-home.md §3.4, docs/radicle-httpd.md §4.1): the top-level refs matching
 * any rule pattern (libgit2 glob, `*` crosses `/`); names under `refs/tags/` become tags,
 * the rest are peeled to commits. Results per object id are memoised since objects never
 * change; only the ref listing is re-read on each call.
 */
export class CanonicalRefsReader {
  private readonly resolved = new BoundedCache<Oid, Resolved>({ maxEntries: MAX_CACHED_OBJECTS });

  constructor(private readonly git: GitReader) {}

  /** Lists and resolves the refs matching `patterns`. */
  async read(patterns: readonly string[]): Promise<CanonicalRefs> {
    const matches = await this.matchingRefs(patterns);
    const result: CanonicalRefs = { tags: {}, refs: {} };
    for (const { name, oid } of matches) {
      const isTag = name.startsWith('refs/tags/');
      const resolved = await this.resolve(oid);
      if (isTag && resolved.tag !== null) result.tags[name] = resolved.tag;
      else if (!isTag && resolved.commit !== null) result.refs[name] = resolved.commit;
    }
    return result;
  }

  private async matchingRefs(patterns: readonly string[]): Promise<RefEntry[]> {
    const byName = new Map<string, RefEntry>();
    // A pattern without glob characters names one ref: one round trip on the repository's
    // cat-file process instead of a for-each-ref process (the default rule is always exact).
    for (const name of patterns.filter((pattern) => !isRefGlob(pattern) && !pattern.startsWith(NAMESPACES))) {
      const oid = await this.resolveExact(name);
      if (oid !== null) byName.set(name, { name, oid });
    }
    const globs = patterns.filter(isRefGlob);
    const compiled = globs.map(compileRefGlob);
    const prefixes = [...new Set(globs.map(refGlobPrefix))].filter(isValidRefPrefix);
    for (const prefix of prefixes) {
      for (const ref of await this.git.listRefs(prefix)) {
        // Canonical refs are top-level; peers' refs live under refs/namespaces/.
        if (ref.name.startsWith(NAMESPACES)) continue;
        if (compiled.some((glob) => glob.test(ref.name))) byName.set(ref.name, ref);
      }
    }
    return [...byName.values()].sort((a, b) => compareUtf8(a.name, b.name));
  }

  /** The oid of an exactly named ref (symbolic refs followed), or null when absent or malformed. */
  private resolveExact(name: string): Promise<Oid | null> {
    return resolveStoredRef(this.git, name);
  }

  private resolve(oid: Oid): Promise<Resolved> {
    return this.resolved.getOrLoad(oid, () => this.resolveUncached(oid));
  }

  private async resolveUncached(oid: Oid): Promise<Resolved> {
    const info = await this.git.readObjectInfo(oid);
    if (info?.type === 'commit') return { tag: { commit: oid }, commit: oid };
    if (info?.type !== 'tag') return { tag: null, commit: null };
    const tag = await this.git.readTag(oid);
    if (tag === null) return { tag: null, commit: null };
    const canonical: CanonicalTag = { commit: tag.object };
    if (tag.tagger !== null) {
      canonical.tagger = { name: tag.tagger.name, email: tag.tagger.email, timestamp: tag.tagger.time };
    }
    canonical.message = tag.message;
    return { tag: canonical, commit: await this.git.peelToCommit(oid) };
  }
}
