/**
 * Wire types of the repository listings (api.md 6–8, 24; behaviour.md B §4.1, §4.2).
 * Keys are listed in the order the server writes them.
 */

/** A delegate or author: `{id: did, alias?}`; `alias` is omitted when unknown. */
export interface DelegateRef {
  id: string;
  alias?: string;
}

/** `GET /repos` items, `GET /repos/{rid}`, `GET /delegates/{did}/repos` items (B §4.1). */
export interface RepoInfo {
  /** Keyed by payload id, sorted; the flavour's project payload is a {@link ProjectPayloadEntry}. */
  payloads: Record<string, ProjectPayloadEntry | OtherPayloadEntry>;
  delegates: DelegateRef[];
  threshold: number;
  visibility: { type: 'public' };
  rid: string;
  /** Number of `routing` rows for the repository. */
  seeding: number;
  refs: RepoRefs;
}

/** The project payload entry of repository info. */
export interface ProjectPayloadEntry {
  /** The payload as stored (keys sorted: `defaultBranch, description, name`). */
  data: ProjectPayload;
  meta: ProjectMeta;
}

/** Any other payload of the identity document, shown as stored. */
export interface OtherPayloadEntry {
  data: unknown;
}

/** The project payload of an identity document. */
export interface ProjectPayload {
  defaultBranch: string;
  description: string;
  name: string;
  [key: string]: unknown;
}

/** `meta` of the project entry: canonical head and COB counts. */
export interface ProjectMeta {
  head: string;
  issues: IssueCounts;
  patches: PatchCounts;
}

/** Issue counts by status. */
export interface IssueCounts {
  open: number;
  closed: number;
}

/** Patch counts by status. */
export interface PatchCounts {
  open: number;
  draft: number;
  archived: number;
  merged: number;
}

/** Canonical refs of a repository: tags first, then branch refs (B §4.1). */
export interface RepoRefs {
  tags: Record<string, RepoTag>;
  refs: Record<string, string>;
}

/** A tag: its target; annotated tags add tagger (timestamp in seconds) and message. */
export interface RepoTag {
  commit: string;
  tagger?: { name: string; email: string; timestamp: number };
  message?: string;
}

/** `GET /repos/search` item (B §4.2): raw payloads, no data/meta level. */
export interface RepoSearchResult {
  rid: string;
  payloads: Record<string, unknown>;
  delegates: DelegateRef[];
  seeds: number;
}
