import type { Flavour } from '@forge-httpd/storage';
import type { Issue } from '../issue/issue-view.js';
import type { CobRepository } from './cob-kinds.js';
import { CobStore } from './cob-store.js';

/**
 * Evaluates every issue of a repository once (no cache kept; servers should hold a
 * {@link CobStore} per repository instead).
 * @returns valid issues, newest first
 */
export async function loadIssues(repo: CobRepository, options: { flavour: Flavour }): Promise<readonly Issue[]> {
  return (await new CobStore(options.flavour).snapshot(repo)).issues();
}
