import type {
  DelegateRef,
  OtherPayloadEntry,
  ProjectMeta,
  ProjectPayload,
  ProjectPayloadEntry,
  RepoInfo,
  RepoRefs,
  RepoSearchResult,
  RepoTag,
} from '@forge-httpd/api-types';
import { compareUtf8 } from '@forge-httpd/identity';

/** A copy of `record` with keys in byte order. */
function sortKeys<T>(record: Readonly<Record<string, T>>): Record<string, T> {
  const keys = Object.keys(record).sort(compareUtf8);
  return Object.fromEntries(keys.map((key) => [key, record[key] as T]));
}

/** A delegate reference; `alias` omitted when unknown (docs/decisions.md "Wire format"). */
export function toDelegateRef(did: string, alias: string | null): DelegateRef {
  return alias === null ? { id: did } : { id: did, alias };
}

/** Inputs of {@link toRepoInfo}. */
export interface RepoInfoParts {
  rid: string;
  /** Identity-document payloads by id, as stored. */
  payloads: Readonly<Record<string, unknown>>;
  /** The flavour's project payload id, e.g. `xyz.forge.project`. */
  projectPayloadId: string;
  /** `meta` of the project entry; null drops that entry (head or counts failed, docs/radicle-httpd.md §4.1). */
  projectMeta: ProjectMeta | null;
  /** True when the project payload is valid; otherwise it is shown like any other payload. */
  projectValid: boolean;
  delegates: DelegateRef[];
  threshold: number;
  seeding: number;
  refs: RepoRefs;
}

function toPayloadEntry(parts: RepoInfoParts, id: string, value: unknown): ProjectPayloadEntry | OtherPayloadEntry | null {
  if (id !== parts.projectPayloadId || !parts.projectValid) return { data: value };
  if (parts.projectMeta === null) return null;
  return { data: value as ProjectPayload, meta: parts.projectMeta };
}

/** Repository info, keys in docs/radicle-httpd.md §4.1 order, payloads sorted by id. */
export function toRepoInfo(parts: RepoInfoParts): RepoInfo {
  const payloads: RepoInfo['payloads'] = {};
  for (const [id, value] of Object.entries(sortKeys(parts.payloads))) {
    const entry = toPayloadEntry(parts, id, value);
    if (entry !== null) payloads[id] = entry;
  }
  return {
    payloads,
    delegates: parts.delegates,
    threshold: parts.threshold,
    visibility: { type: 'public' },
    rid: parts.rid,
    seeding: parts.seeding,
    refs: parts.refs,
  };
}

/** `meta` of the project entry: `head, issues, patches` (docs/radicle-httpd.md §0.2 item 3). */
export function toProjectMeta(parts: { head: string; counts: Pick<ProjectMeta, 'issues' | 'patches'> }): ProjectMeta {
  const { issues, patches } = parts.counts;
  return {
    head: parts.head,
    issues: { open: issues.open, closed: issues.closed },
    patches: { open: patches.open, draft: patches.draft, archived: patches.archived, merged: patches.merged },
  };
}

/** A tag entry: `commit`, then `tagger` and `message` for annotated tags (docs/radicle-httpd.md §4.1). */
function toRepoTag(tag: RepoTag): RepoTag {
  const result: RepoTag = { commit: tag.commit };
  if (tag.tagger !== undefined) {
    result.tagger = { name: tag.tagger.name, email: tag.tagger.email, timestamp: tag.tagger.timestamp };
  }
  if (tag.message !== undefined) result.message = tag.message;
  return result;
}

/** Canonical refs `{tags, refs}`, both maps in byte order of the ref names. */
export function toRepoRefs(refs: { tags: Readonly<Record<string, RepoTag>>; refs: Readonly<Record<string, string>> }): RepoRefs {
  const tags: Record<string, RepoTag> = {};
  for (const [name, tag] of Object.entries(sortKeys(refs.tags))) tags[name] = toRepoTag(tag);
  return { tags, refs: sortKeys(refs.refs) };
}

/** A search item (docs/radicle-httpd.md §4.2): raw payloads sorted by id, no data/meta level. */
export function toSearchResult(parts: { rid: string; payloads: Readonly<Record<string, unknown>>; delegates: DelegateRef[]; seeds: number }): RepoSearchResult {
  return { rid: parts.rid, payloads: sortKeys(parts.payloads), delegates: parts.delegates, seeds: parts.seeds };
}
