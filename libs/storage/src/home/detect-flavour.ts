import path from 'node:path';
import { sortRids } from '@forge-httpd/identity';
import { GitProcesses } from '../git/processes/git-processes.js';
import { runGit } from '../git/processes/run-git.js';
import type { Flavour } from './flavour.js';
import { listStorageEntries } from './storage-entries.js';

/** Repositories looked at, at most: every one of a home agrees, a few decide. */
const SAMPLE = 8;

/** What {@link detectFlavour} found. */
export interface FlavourDetection {
  /** The flavour the stored repositories are written in; null when none told. */
  readonly flavour: Flavour | null;
  /** Why, in words, for the start-up log. */
  readonly reason: string;
}

/**
 * Tells the protocol flavour of a node home from its stored repositories: the COB type of the
 * identity change that each repository's `refs/rad/id` points to (the `typeName` of that
 * commit's `manifest` blob, docs/node-home.md §6): `xyz.radicle.id` → radicle, `xyz.forge.id` →
 * forge. The first few repositories in name order are read; the first one that tells decides.
 * @param home - the node home directory
 * @returns the flavour, or null when no repository tells (empty storage, unreadable repositories)
 */
export async function detectFlavour(home: string, processes: GitProcesses = new GitProcesses()): Promise<FlavourDetection> {
  const entries = await listStorageEntries(path.join(home, 'storage'));
  const rids = sortRids(entries?.keys() ?? []).slice(0, SAMPLE);
  for (const rid of rids) {
    const typeName = await identityTypeName(entries?.get(rid) as string, processes);
    const flavour = typeName === 'xyz.radicle.id' ? 'radicle' : typeName === 'xyz.forge.id' ? 'forge' : null;
    if (flavour !== null) return { flavour, reason: `the identity of ${rid} is an ${typeName} object` };
  }
  return { flavour: null, reason: rids.length === 0 ? 'the storage holds no repository' : 'no repository tells its identity type' };
}

async function identityTypeName(gitDir: string, processes: GitProcesses): Promise<string | null> {
  try {
    // A constant revision expression: nothing here comes from a request.
    const { stdout } = await runGit({ gitDir, processes, args: ['cat-file', 'blob', 'refs/rad/id:manifest'] });
    const manifest = JSON.parse(stdout.toString('utf8')) as { typeName?: unknown };
    return typeof manifest.typeName === 'string' ? manifest.typeName : null;
  } catch {
    return null;
  }
}
