import type { Did, Rid } from '@forge-httpd/identity';
import type { Oid } from '../git/objects/oid.js';
import type { IdentityDocument } from '../identity-doc/identity-document.js';
import type { ObjectReads } from '../git/objects/object-reads.js';
import { readIdentityRefFile, readIdentityDocumentFromFiles } from '../identity-doc/identity-from-files.js';
import { parseProjectPayload, type ProjectPayload } from '../identity-doc/payloads.js';
import type { StoredRepository } from '../repository/stored-repository.js';
import { type Flavour, payloadId } from './flavour.js';

/**
 * What the storage index knows about one repository: everything listings filter, sort and
 * search on, derived from its current identity document only (docs/node-home.md §3.2, §4).
 */
export interface RepositorySummary {
  readonly rid: Rid;
  /** Commit of top-level `refs/rad/id`; null when it could not be read. */
  readonly identityHead: Oid | null;
  /** The current document; null when the repository is unloadable (see `error`). */
  readonly document: IdentityDocument | null;
  /** The valid `xyz.<flavour>.project` payload, or null. */
  readonly project: ProjectPayload | null;
  /** `project.name` lower-cased (search is case-insensitive, docs/decisions.md). */
  readonly searchName: string | null;
  /** Why the repository cannot be loaded; null when it can. */
  readonly error: string | null;
}

/** Whether a summary is of a loadable, public repository (private == absent everywhere). */
export function isPublicSummary(summary: RepositorySummary): boolean {
  return summary.document?.visibility.type === 'public';
}

/** Inputs of {@link loadRepositorySummary}. */
export interface SummaryLoad {
  rid: Rid;
  gitDir: string;
  /** The runtime's in-process object reads (`StorageRuntime.objects`). */
  objects: ObjectReads;
  flavour: Flavour;
  /** The summary loaded before: reused as is when `refs/rad/id` did not move. */
  previous?: RepositorySummary;
  /** Reads the repository through git when the files cannot be read directly (null: directory gone). */
  withRepository: <T>(use: (repository: StoredRepository | null) => Promise<T>) => Promise<T>;
  /** Returns one shared copy of equal strings (delegate DIDs), to keep big indexes small. */
  intern?: (text: string) => string;
}

function summarize(load: SummaryLoad, head: Oid, parsed: IdentityDocument): RepositorySummary {
  const { intern } = load;
  const document = intern === undefined ? parsed : { ...parsed, delegates: parsed.delegates.map((did) => intern(did) as Did) };
  const project = parseProjectPayload(document.payloads[payloadId(load.flavour, 'project')]);
  return { rid: load.rid, identityHead: head, document, project, searchName: project?.name.toLowerCase() ?? null, error: null };
}

/** The error of a repository without `refs/rad/id`: normal while a node is still creating it. */
export const NO_IDENTITY = 'repository has no refs/rad/id';

function failed(rid: Rid, error: unknown): RepositorySummary {
  const message = error instanceof Error ? error.message : String(error);
  return { rid, identityHead: null, document: null, project: null, searchName: null, error: message };
}

/**
 * The summary read from the repository's files alone (synchronous and cheap): reuses `previous`
 * when `refs/rad/id` did not move.
 * @returns the summary, or undefined when git must be asked ({@link loadRepositorySummary})
 */
export function readSummaryFromFiles(load: SummaryLoad): RepositorySummary | undefined {
  try {
    const head = readIdentityRefFile(load.gitDir);
    if (head === undefined) return undefined;
    if (head === null) return failed(load.rid, new Error(NO_IDENTITY));
    if (load.previous?.identityHead === head && load.previous.document !== null) return load.previous;
    const document = readIdentityDocumentFromFiles(load.gitDir, load.objects, head);
    return document === undefined ? undefined : summarize(load, head, document);
  } catch (error) {
    return failed(load.rid, error);
  }
}

/**
 * Loads a repository's summary through git (packed objects, unusual refs).
 * @returns the summary (with `error` set when unloadable), or null when the directory is gone
 */
export async function loadSummaryThroughGit(load: SummaryLoad): Promise<RepositorySummary | null> {
  try {
    return await load.withRepository(async (repository) => {
      if (repository === null) return null;
      const document = await repository.identityDocument();
      return summarize(load, await repository.identityHead(), document);
    });
  } catch (error) {
    return failed(load.rid, error);
  }
}

/**
 * Loads a repository's summary: from its files when they answer (no git
 * process), else through git. Never throws: an unloadable repository gets a summary with
 * `error` set (listings skip it, docs/radicle-httpd.md §5.6).
 * @returns the summary, or null when the repository directory is gone
 */
export async function loadRepositorySummary(load: SummaryLoad): Promise<RepositorySummary | null> {
  return readSummaryFromFiles(load) ?? loadSummaryThroughGit(load);
}
