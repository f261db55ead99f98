import { InvalidInputError } from '@forge-httpd/identity';
import type { GitRepository } from '../git-repository.js';
import type { Oid } from '../objects/oid.js';

/**
 * Resolves a ref whose name comes from stored data (an identity document's branch, a crefs
 * pattern): a name no ref can have resolves to nothing instead of failing.
 * @returns the oid (symbolic refs followed), or null when absent or malformed
 */
export async function resolveStoredRef(git: Pick<GitRepository, 'resolveRef'>, name: string): Promise<Oid | null> {
  try {
    return await git.resolveRef(name);
  } catch (error) {
    if (error instanceof InvalidInputError) return null;
    throw error;
  }
}
