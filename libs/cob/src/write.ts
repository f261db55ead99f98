/**
 * The write side of @forge-httpd/cob, for tools that build node homes (the builder, tests):
 * collaborative-object changes written and signed as a node writes them, refused when a node
 * would reject them (unless `force`).
 */
export { writeChange } from './write/write-change.js';
export type { ChangeInput, EmbedFile } from './write/write-change.js';
export { createCob, updateCob, writeOtherCob } from './write/write-cob.js';
export type { ChangeRequest, CobKindName, CobWriteContext, OtherChangeRequest } from './write/write-cob.js';
export {
  assignIssue,
  commentIssue,
  createIssue,
  editIssueComment,
  editIssueTitle,
  labelIssue,
  reactIssueComment,
  redactIssueComment,
  setIssueState,
  updateIssue,
} from './write/issue-writes.js';
export type { IssueStateInput } from './write/issue-writes.js';
export {
  assignPatch,
  commentReview,
  commentRevision,
  createPatch,
  editPatchTitle,
  editReview,
  editRevision,
  labelPatch,
  mergePatch,
  reactReview,
  reactReviewComment,
  reactRevision,
  reactRevisionComment,
  redactReview,
  redactRevision,
  resolveReviewComment,
  revisePatch,
  reviewPatch,
  setPatchState,
  updatePatch,
} from './write/patch-writes.js';
export type { VerdictInput } from './write/patch-writes.js';
export { createJob, finishJobRun, startJobRun } from './write/job-writes.js';
