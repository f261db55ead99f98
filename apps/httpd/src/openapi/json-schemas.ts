/**
 * JSON Schema 2020-12 (OpenAPI 3.1) of the api-types schemas, through @valibot/to-json-schema:
 * named schemas become `components.schemas` entries referenced by `$ref`.
 */
import * as api from '@forge-httpd/api-types';
import { type ConversionConfig, toJsonSchema, toJsonSchemaDefs } from '@valibot/to-json-schema';
import type * as v from 'valibot';

/** A JSON Schema object. */
export type JsonSchema = Record<string, unknown>;

/** The named schemas of the document, in the order they are listed. */
const NAMED: Record<string, v.GenericSchema> = {
  ErrorBody: api.errorBodySchema,
  RefsEvent: api.refsEventSchema,
  CobEvent: api.cobEventSchema,
  RepoEvent: api.repoEventSchema,
  TooLargeBody: api.tooLargeBodySchema,
  InfoLink: api.infoLinkSchema,
  RootInfo: api.rootInfoSchema,
  ApiInfo: api.apiInfoSchema,
  ApiV1Info: api.apiV1InfoSchema,
  NodeStats: api.nodeStatsSchema,
  ServerInfo: api.serverInfoSchema,
  NodeInfo: api.nodeInfoSchema,
  SeedingPolicy: api.seedingPolicySchema,
  RepoPolicy: api.repoPolicySchema,
  NodeIdentity: api.nodeIdentitySchema,
  DelegateRef: api.delegateRefSchema,
  ProjectPayload: api.projectPayloadSchema,
  ProjectPayloadEntry: api.projectPayloadEntrySchema,
  RepoTag: api.repoTagSchema,
  RepoInfo: api.repoInfoSchema,
  RepoSearchResult: api.repoSearchResultSchema,
  Commit: api.commitSchema,
  CommitDetail: api.commitDetailSchema,
  RangeDiffResponse: api.rangeDiffResponseSchema,
  CommitDiff: api.commitDiffSchema,
  RangeDiff: api.rangeDiffSchema,
  CommitDiffLine: api.commitDiffLineSchema,
  RangeDiffLine: api.rangeDiffLineSchema,
  DiffFile: api.diffFileSchema,
  DiffStats: api.diffStatsSchema,
  DiffBlob: api.diffBlobSchema,
  Activity: api.activitySchema,
  TreeEntry: api.treeEntrySchema,
  Tree: api.treeSchema,
  Blob: api.blobSchema,
  Remote: api.remoteSchema,
  TreeStats: api.treeStatsSchema,
  CommitCountStats: api.commitCountStatsSchema,
  RangeDiffStats: api.rangeDiffStatsSchema,
  Embed: api.embedSchema,
  Reaction: api.reactionSchema,
  CommentEdit: api.commentEditSchema,
  IssueComment: api.issueCommentSchema,
  IssueState: api.issueStateSchema,
  Issue: api.issueSchema,
  CodeRange: api.codeRangeSchema,
  CodeLocation: api.codeLocationSchema,
  PatchComment: api.patchCommentSchema,
  RevisionReaction: api.revisionReactionSchema,
  Review: api.reviewSchema,
  Revision: api.revisionSchema,
  PatchMerge: api.patchMergeSchema,
  PatchState: api.patchStateSchema,
  Patch: api.patchSchema,
  Job: api.jobSchema,
  JobRun: api.jobRunSchema,
};

const CONFIG: ConversionConfig = {
  target: 'draft-2020-12',
  definitions: NAMED,
  // A loose object keeps unknown keys: say so, so that a checker may treat every other
  // object without `additionalProperties` as closed.
  overrideSchema: (context) => (context.valibotSchema.type === 'loose_object' ? { ...context.jsonSchema, additionalProperties: true } : undefined),
};

function toComponentRefs(schema: unknown): JsonSchema {
  const text = JSON.stringify(schema).replaceAll('"#/$defs/', '"#/components/schemas/');
  // Named schemas are listed once, in `components.schemas`: drop the copies a conversion adds.
  const { $schema: _, $defs: __, ...rest } = JSON.parse(text) as JsonSchema;
  return rest;
}

/** `components.schemas`: every named schema. */
export function componentSchemas(): Record<string, JsonSchema> {
  return toComponentRefs(toJsonSchemaDefs(NAMED, CONFIG)) as Record<string, JsonSchema>;
}

/** The JSON Schema of one api-types schema, named schemas referenced. */
export function jsonSchemaOf(schema: v.GenericSchema): JsonSchema {
  const name = Object.entries(NAMED).find(([, named]) => named === schema)?.[0];
  if (name !== undefined) return { $ref: `#/components/schemas/${name}` };
  return toComponentRefs(toJsonSchema(schema, CONFIG));
}
