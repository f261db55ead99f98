// The wire contract of forge-httpd: types only, no runtime code, no imports from other packages.
export type { ErrorBody, TooLargeBody } from './error.js';
export type { ApiInfo, ApiV1Info, InfoLink, NodeStats, RootInfo, ServerInfo } from './info.js';
export type {
  NodeIdentity,
  NodeInfo,
  NodeInventory,
  NodeState,
  RepoPolicy,
  SeedingPolicy,
  SeedingScope,
} from './node.js';
export type {
  DelegateRef,
  IssueCounts,
  OtherPayloadEntry,
  PatchCounts,
  ProjectMeta,
  ProjectPayload,
  ProjectPayloadEntry,
  RepoInfo,
  RepoRefs,
  RepoSearchResult,
  RepoTag,
} from './repo.js';
export type { Activity, Commit, CommitDetail, RangeDiffResponse } from './commit.js';
export type {
  CommitDiff,
  Diff,
  DiffBlob,
  DiffContent,
  DiffEof,
  DiffFile,
  DiffFileMode,
  DiffFiles,
  DiffHunk,
  DiffLine,
  DiffRange,
  DiffStats,
  FileDiff,
  MovedFileDiff,
  RangeDiff,
} from './diff.js';
export type { Tree, TreeEntry } from './tree.js';
export type { Blob } from './blob.js';
export type { Remote } from './remote.js';
export type { CommitCountStats, RangeDiffStats, TreeStats } from './stats.js';
export type { Author, CommentEdit, Embed, Issue, IssueComment, IssueState, Reaction } from './issue.js';
export type {
  CodeLocation,
  CodeRange,
  Patch,
  PatchComment,
  PatchMerge,
  PatchState,
  Review,
  Revision,
  RevisionReaction,
} from './patch.js';
export type { Job, JobRun } from './job.js';
