/**
 * Repository listings (docs/api.md 6–8, 24; docs/radicle-httpd.md §4.1, §4.2). Keys are listed in the
 * order the server writes them.
 */
import * as v from 'valibot';
import { countSchema, didSchema, integerSchema, oidSchema, ridSchema, timestampSchema } from './scalars.js';

/** A delegate or author: `{id: did, alias?}`; `alias` is omitted when unknown. */
export const delegateRefSchema = v.object({
  id: didSchema,
  alias: v.optional(v.string()),
});
export type DelegateRef = v.InferOutput<typeof delegateRefSchema>;

/** The project payload of an identity document (other keys are kept as stored). */
export const projectPayloadSchema = v.looseObject({
  defaultBranch: v.string(),
  description: v.string(),
  name: v.string(),
});
export type ProjectPayload = v.InferOutput<typeof projectPayloadSchema>;

/** Issue counts by status. */
export const issueCountsSchema = v.object({ open: countSchema, closed: countSchema });
export type IssueCounts = v.InferOutput<typeof issueCountsSchema>;

/** Patch counts by status. */
export const patchCountsSchema = v.object({
  open: countSchema,
  draft: countSchema,
  archived: countSchema,
  merged: countSchema,
});
export type PatchCounts = v.InferOutput<typeof patchCountsSchema>;

/** `meta` of the project entry: canonical head and COB counts. */
export const projectMetaSchema = v.object({
  head: oidSchema,
  issues: issueCountsSchema,
  patches: patchCountsSchema,
});
export type ProjectMeta = v.InferOutput<typeof projectMetaSchema>;

/** The project payload entry of repository info (payload keys sorted as stored). */
export const projectPayloadEntrySchema = v.object({
  data: projectPayloadSchema,
  meta: projectMetaSchema,
});
export type ProjectPayloadEntry = v.InferOutput<typeof projectPayloadEntrySchema>;

/** Any other payload of the identity document, shown as stored. */
export const otherPayloadEntrySchema = v.object({ data: v.unknown() });
export type OtherPayloadEntry = v.InferOutput<typeof otherPayloadEntrySchema>;

/** A tag: its target; annotated tags add tagger (timestamp in seconds) and message. */
export const repoTagSchema = v.object({
  commit: oidSchema,
  tagger: v.optional(v.object({ name: v.string(), email: v.string(), timestamp: timestampSchema })),
  message: v.optional(v.string()),
});
export type RepoTag = v.InferOutput<typeof repoTagSchema>;

/** Canonical refs of a repository: tags first, then branch refs (docs/radicle-httpd.md §4.1). */
export const repoRefsSchema = v.object({
  tags: v.record(v.string(), repoTagSchema),
  refs: v.record(v.string(), oidSchema),
});
export type RepoRefs = v.InferOutput<typeof repoRefsSchema>;

/** `GET /repos` items, `GET /repos/{rid}`, `GET /delegates/{did}/repos` items (docs/radicle-httpd.md §4.1). */
export const repoInfoSchema = v.object({
  /** Keyed by payload id, sorted; the flavour's project payload is a project entry. */
  payloads: v.record(v.string(), v.union([projectPayloadEntrySchema, otherPayloadEntrySchema])),
  delegates: v.array(delegateRefSchema),
  threshold: integerSchema,
  visibility: v.object({ type: v.literal('public') }),
  rid: ridSchema,
  /** Number of `routing` rows for the repository. */
  seeding: countSchema,
  refs: repoRefsSchema,
  /** The repository's alias (`--alias`, config.json `web.aliases`), omitted when it has none. */
  alias: v.optional(v.string()),
});
export type RepoInfo = v.InferOutput<typeof repoInfoSchema>;

/** `GET /repos/search` item (docs/radicle-httpd.md §4.2): raw payloads, no data/meta level. */
export const repoSearchResultSchema = v.object({
  rid: ridSchema,
  payloads: v.record(v.string(), v.unknown()),
  delegates: v.array(delegateRefSchema),
  seeds: countSchema,
});
export type RepoSearchResult = v.InferOutput<typeof repoSearchResultSchema>;
