import { cobTypeName, type Flavour } from '@forge-httpd/storage';

/**
 * The ref sub-paths below a peer namespace that hold issues and patches
 * (`refs/cobs/xyz.<flavour>.issue/`, `…patch/`), for a look at the ref files
 * (`mayHaveNamespacedRefs`) before anything lists refs through git.
 */
export function issueAndPatchRefDirs(flavour: Flavour): string[] {
  return (['issue', 'patch'] as const).map((type) => `refs/cobs/${cobTypeName(flavour, type)}/`);
}
