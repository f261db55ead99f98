import { cobTypeName, type Flavour, type NamespacedRefsProbe } from '@forge-httpd/storage';

/**
 * Whether a repository may hold issues or patches, from a look at its ref files
 * (`refs/namespaces/<peer>/refs/cobs/xyz.<flavour>.issue/`, `…patch/`, loose or packed) before
 * anything lists refs through git: false only when there certainly are none (every repository
 * has an identity COB, so "any COB ref" would say nothing).
 * @param refs - the runtime's probe (`StorageRuntime.namespacedRefs`)
 * @param gitDir - a repository of the storage
 */
export function mayHaveIssuesOrPatches(refs: NamespacedRefsProbe, gitDir: string, flavour: Flavour): boolean {
  return refs.mayHaveNamespacedRefs(
    gitDir,
    (['issue', 'patch'] as const).map((type) => `refs/cobs/${cobTypeName(flavour, type)}/`),
  );
}
