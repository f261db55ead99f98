/**
 * How one repository's commits relate: merge bases by git, ancestry and branch containment from
 * the commit-graph and the in-memory reachability index when they can tell, else by git.
 */
import { compareUtf8 } from '@forge-httpd/identity';
import type { GitGraphQueries, GitObjectReads } from '../git-repository.js';
import { listRefFiles, type PackedRefsFile } from '../objects/loose-files.js';
import { checkOid, type Oid } from '../objects/oid.js';
import { invalidRefName, isValidRefPrefix } from '../objects/ref-name.js';
import type { RefListingCache } from '../refs/ref-listing-cache.js';
import { listRefsContaining } from '../refs/refs.js';
import type { RepositoryContext } from '../repository-context.js';
import { isAncestorInGraph } from './graph-containment.js';
import { countAheadBehind, isAncestor, mergeBase } from './merge-base.js';
import type { ReachabilityIndex } from './reachability-index.js';
import type { RepositoryCommitGraph } from './repository-commit-graph.js';
import type { GitTarget } from '../processes/git-processes.js';

export class GraphQueries implements GitGraphQueries {
  private readonly gitDir: string;
  private readonly at: GitTarget;
  private readonly commitGraph: RepositoryCommitGraph;
  private readonly reachability: ReachabilityIndex;
  private readonly refFiles: PackedRefsFile;
  private readonly refListings: RefListingCache;

  /**
   * @param context - the repository's parts
   * @param objects - its object reads, which peel ref tips to commits
   */
  constructor(
    private readonly context: RepositoryContext,
    private readonly objects: Pick<GitObjectReads, 'peelToCommit'>,
  ) {
    this.gitDir = context.gitDir;
    this.at = context.at;
    this.commitGraph = context.commitGraph;
    this.reachability = context.reachability;
    this.refFiles = context.refFiles;
    this.refListings = context.refListings;
  }

  mergeBase(a: Oid, b: Oid): Promise<Oid | null> {
    return mergeBase(this.at, [a, b]);
  }

  countAheadBehind(base: Oid, head: Oid): Promise<{ ahead: number; behind: number }> {
    return countAheadBehind(this.at, { base, head });
  }

  async isAncestor(ancestor: Oid, descendant: Oid): Promise<boolean> {
    checkOid(ancestor);
    checkOid(descendant);
    // Collaborative objects ask this for every merge they record: the commit-graph answers
    // without a process when it holds both commits.
    return this.commitGraph.answer((graph) => isAncestorInGraph(graph, ancestor, descendant)) ?? isAncestor(this.at, { ancestor, descendant });
  }

  async refsContaining(commit: Oid, prefixes: readonly string[]): Promise<string[]> {
    checkOid(commit);
    for (const prefix of prefixes) if (!isValidRefPrefix(prefix)) throw invalidRefName('prefix');
    // The ref files and the commit-graph answer in process when they can: no process, no
    // listing of the history, on a first read as later.
    const fromGraph = this.containingFromFiles(commit, prefixes);
    if (fromGraph !== null) return fromGraph;
    if (this.reachability.isEmpty()) {
      // A first read of this repository: git answers alone, and the ref listings and the index
      // walk start once the answer is in. Every spawn blocks the event loop for a time that
      // grows with the server's resident size, so the first page waits for one process, not
      // three, and shares no core with the walk.
      const names = await listRefsContaining(this.at, commit, prefixes);
      setImmediate(() => {
        if (!this.context.closed)
          void this.refTips(prefixes).then(
            (refs) => this.reachability.prepare(refs),
            () => undefined,
          );
      });
      return names;
    }
    // The stat-stamped listings and the in-memory index answer without a process; git
    // (`for-each-ref --contains`) only when the index cannot (many tips, a huge history).
    const refs = await this.refTips(prefixes);
    return (await this.reachability.containing(commit, refs)) ?? listRefsContaining(this.at, commit, prefixes);
  }

  /**
   * {@link refsContaining} from the ref files and the commit-graph, or null when they cannot
   * tell (no graph, a commit or tip outside it, a ref git must read).
   */
  private containingFromFiles(commit: Oid, prefixes: readonly string[]): string[] | null {
    return this.commitGraph.answer((graph) => {
      const listed = listRefFiles(this.gitDir, prefixes, this.refFiles);
      if (listed === undefined) return null;
      const refs = listed.sort((a, b) => compareUtf8(a.name, b.name)).map((ref) => ({ name: ref.name, commit: ref.oid }));
      return this.reachability.containingInGraph(commit, refs, graph);
    });
  }

  /** The refs under `prefixes` in name order, each with the commit its tip stands for. */
  private async refTips(prefixes: readonly string[]): Promise<Array<{ name: string; commit: Oid | null }>> {
    const byName = new Map<string, Oid>();
    for (const listing of await Promise.all(prefixes.map((prefix) => this.refListings.get(prefix)))) {
      for (const ref of listing) byName.set(ref.name, ref.oid);
    }
    const names = [...byName.keys()].sort(compareUtf8);
    const tips = new Map<Oid, Promise<Oid | null>>();
    for (const oid of byName.values()) if (!tips.has(oid)) tips.set(oid, this.objects.peelToCommit(oid));
    return Promise.all(names.map(async (name) => ({ name, commit: await (tips.get(byName.get(name) as Oid) as Promise<Oid | null>) })));
  }
}
