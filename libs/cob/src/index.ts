/**
 * The read side of @forge-httpd/cob: issues, patches, jobs and identities evaluated from their
 * change DAGs. Writing changes as a node does is `@forge-httpd/cob/write` (builders, tests).
 */
// Changes and evaluation (docs/node-home.md §6)
export type { Change } from './change.js';
export { evaluateChanges } from './dag/evaluate-changes.js';
export type { ApplyContext, ChangeRejection, CobFolder, Evaluation } from './dag/evaluate-changes.js';
export { loadChange, ManifestCache } from './read/load-change.js';
export type { CobRefIndex } from './read/cob-ref-index.js';
export { isCobTypeName, loadChangeLog, objectTipsOfType } from './read/change-log.js';
export type { ChangeLogLimits, LoggedAction, LoggedChange } from './read/change-log.js';
// Shared model
export type { FoldEnv } from './model/fold-env.js';
export { parseIdentityDoc, projectDefaultBranch } from './model/identity-doc.js';
export type { IdentityDoc } from './model/identity-doc.js';
export type { CodeLocation, CodeRange, Embed } from './model/values.js';
export { isLabel, isReaction } from './model/values.js';
export type { Edit, ReactionGroup } from './model/thread.js';
export type { CommentView } from './model/comment-view.js';
export { compareNids } from './model/compare.js';
// Issues (docs/node-home.md §7.1)
export { issueFolder } from './issue/fold-issue.js';
export { parseIssueAction } from './issue/issue-action.js';
export type { IssueAction, IssueLifecycle } from './issue/issue-action.js';
export type { IssueState } from './issue/issue-state.js';
export { viewIssue } from './issue/issue-view.js';
export type { Issue } from './issue/issue-view.js';
// Patches (docs/node-home.md §7.2)
export { patchFolder } from './patch/fold-patch.js';
export { parsePatchAction } from './patch/patch-action.js';
export type { MergeTarget, PatchAction, PatchLifecycle, ReviewEditAction, Verdict } from './patch/patch-action.js';
export type { Merge, PatchState, PatchStatus } from './patch/patch-state.js';
export { viewPatch } from './patch/patch-view.js';
export type { Patch, RevisionReaction, RevisionRefsResolver, RevisionView, ReviewView } from './patch/patch-view.js';
// Identity COB (docs/node-home.md §4.3–4.4)
export { identityFolder } from './identity/fold-identity.js';
export type { IdentityEnv } from './identity/fold-identity.js';
export { parseIdentityAction } from './identity/identity-action.js';
export type { IdentityAction } from './identity/identity-action.js';
export type { IdentityRevision, IdentityState } from './identity/identity-state.js';
export { viewIdentity } from './identity/identity-view.js';
export type { Identity, IdentityRevisionView } from './identity/identity-view.js';
// Jobs (radicle-job 0.6)
export { jobFolder } from './job/fold-job.js';
export type { JobRun, JobState, RunStatus } from './job/fold-job.js';
export { parseJobAction } from './job/job-action.js';
export type { JobAction } from './job/job-action.js';
export { viewJob } from './job/job-view.js';
export type { Job, JobRunView } from './job/job-view.js';
// Cached evaluation of a repository
export { COB_STORE_BYTES_PER_LISTED_OBJECT, COB_STORE_BYTES_PER_OBJECT, CobStore } from './store/cob-store.js';
export type { CobEvaluation, CobRejectionReport, CobStoreOptions } from './store/cob-store.js';
export type { CachedObject, RootTime } from './store/cached-object.js';
export { CobSnapshot } from './store/cob-snapshot.js';
export type { EvaluationScope, ListingFacts, PersistedEvaluation, PersistedEvaluations } from './store/persisted-evaluations.js';
export { EVALUATION_FORMAT_VERSION, openSqliteEvaluations, sqliteEvaluationsFile } from './store/sqlite-evaluations.js';
export type { SqliteEvaluationsOptions } from './store/sqlite-evaluations.js';
export type { CobCounts, IssueStatusFilter, ListingRange, PatchStatusFilter, PreparedListings, PrepareOptions } from './store/cob-snapshot.js';
export { JOB_TYPE_NAME } from './store/cob-kinds.js';
export type { CobKind, CobKinds, CobRepository } from './store/cob-kinds.js';
export { loadIssues } from './store/load-cobs.js';
