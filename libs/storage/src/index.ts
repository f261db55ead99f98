/**
 * The read side of @forge-httpd/storage: a node home, its repositories, git reads, databases,
 * config and control socket. Writing node homes (objects, refs, signed refs, databases, config)
 * is `@forge-httpd/storage/write`, for builders and tests.
 */
// git (libs/storage/src/git)
export { gitEnvironment } from './git/processes/git-command.js';
export { checkGit, MIN_GIT_VERSION } from './git/processes/check-git.js';
export { EMPTY_TREE_OID, isOid, parseOid } from './git/objects/oid.js';
export type { Oid } from './git/objects/oid.js';
export type { GitObjectType } from './git/objects/object-type.js';
export type { GitSignature } from './git/format/signature.js';
export type { GitHeader } from './git/objects/object-headers.js';
export { DIFF_TREE_OPTIONS } from './git/history/diff-patch.js';
export { openGitRepository } from './git/open-git-repository.js';
export { resolveStoredRef } from './git/refs/resolve-stored-ref.js';
export type { OpenGitRepositoryOptions } from './git/open-git-repository.js';
export type {
  Contributor,
  DiffPatch,
  DiffPatchOptions,
  DiffNumstatOptions,
  GitCommitWalks,
  GitDiffs,
  GitGraphQueries,
  GitHistoryQueries,
  GitObjectReads,
  GitRefReads,
  GitRepository,
  GitSearches,
  ReadOptions,
  RefEntry,
  WalkCommitsOptions,
} from './git/git-repository.js';
export type { BlameRange, BlameRequest } from './git/history/blame.js';
export type { ChunkedReadOptions, CommitRange } from './git/history/commit-range.js';
export type { GrepMatch, GrepOptions, GrepResult } from './git/processes/git-grep.js';
export { OidList } from './git/objects/oid-list.js';
export { RANGE_CHUNK_COMMITS } from './git/history/walk-commits-until.js';
export { Semaphore } from './git/limits/semaphore.js';
export type { GitCommit, GitObject, GitObjectInfo, GitTag, TreeEntry, TreeEntryKind } from './git/format/git-objects.js';
export { isValidRefName, isValidRefPrefix } from './git/objects/ref-name.js';
export { NamespacedRefsProbe } from './git/refs/namespaced-refs-probe.js';
export { readGitProcessCounts } from './git/processes/git-process-counts.js';
export { warmUpCommitGraphCode } from './git/graph/graph-warm-up.js';
export type { GitProcessCount, GitProcessCounts, GitProcessKind } from './git/processes/git-process-counts.js';
export { GitProcesses, type GitTarget, type SpawnGitOptions } from './git/processes/git-processes.js';
export { StorageRuntime } from './git/storage-runtime.js';
export type { HistoryShares, IndexBudgets } from './git/storage-runtime.js';
export { IndexBudget } from './git/limits/index-budget.js';

export type { GitChildProcess } from './git/processes/git-child-process.js';
// end git
// git server processes (libs/storage/src/serve)
export { GitServerPool } from './serve/git-server-pool.js';
export type { GitServerInvocation, GitServerPoolOptions } from './serve/git-server-pool.js';
export { uploadPack } from './serve/upload-pack.js';
export type { UploadPackMode, UploadPackRequest } from './serve/upload-pack.js';
export { archiveCommit } from './serve/archive.js';
export { refList } from './serve/ref-list.js';
export type { RefListRequest } from './serve/ref-list.js';
export type { ArchiveFormat, ArchiveRequest } from './serve/archive.js';
// end serve
// home (libs/storage/src/{home,repository,identity-doc,sigrefs,db,socket,config})
export { FLAVOURS, cobTypeName, isFlavour, payloadId } from './home/flavour.js';
export type { Flavour } from './home/flavour.js';
export { detectFlavour } from './home/detect-flavour.js';
export type { FlavourDetection } from './home/detect-flavour.js';
export { DEFAULT_SEEDING_POLICY } from './db/seeding-policy.js';
export type { SeedingPolicy, SeedingScope } from './db/seeding-policy.js';
export { NodeDatabase } from './db/node-database.js';
export { PoliciesDatabase } from './db/policies-database.js';
export type { SeedingPolicyEntry } from './db/policies-database.js';
export { resolveAlias } from './db/resolve-alias.js';
export { parseProfileConfig, parseWebConfig } from './config/profile-config.js';
export type { ProfileConfig, WebConfig } from './config/profile-config.js';
export { WebConfigWatcher } from './config/web-config-watcher.js';
export { isRepositoryAliasName, MAX_REPOSITORY_ALIAS_LENGTH } from './config/repository-alias.js';
export type { ConfigLogger } from './config/web-config-watcher.js';
export { ControlSocketClient } from './socket/control-socket-client.js';
export { SIGREFS_PARENT_REF, SIGREFS_REF } from './sigrefs/format-signed-refs.js';
export { parseIdentityDocument } from './identity-doc/identity-document.js';
export type { IdentityDocument, Visibility } from './identity-doc/identity-document.js';
export { IDENTITY_DOC_PATH, IDENTITY_REF } from './identity-doc/load-identity-document.js';
export { parseCanonicalRefsPayload, parseProjectPayload } from './identity-doc/payloads.js';
export type { CanonicalRefsPayload, ProjectPayload } from './identity-doc/payloads.js';
export { readHeadCommitTime, readHeadCommitTimeFromFiles } from './repository/head-commit-time.js';
export type { HeadCommitTime } from './repository/head-commit-time.js';
export type { CanonicalRefs, CanonicalTag } from './repository/canonical-refs.js';
export type { RemoteRefs } from './repository/remotes.js';
export { StoredRepository } from './repository/stored-repository.js';
export type { RepositoryHead } from './repository/stored-repository.js';
export { Storage } from './home/storage.js';
export { StorageIndex } from './home/storage-index.js';
export type { StorageIndexOptions, StorageIndexStats } from './home/storage-index.js';
export { isPublicSummary } from './home/repository-summary.js';
export type { RepositorySummary } from './home/repository-summary.js';
export { identityStamp } from './home/identity-stamp.js';
export { SETTLE_MS } from './git/objects/stat-stamp.js';
export { RefTreeStamper } from './git/refs/ref-tree-stamp.js';
export type { RefsStamp } from './git/refs/ref-tree-stamp.js';
export type { IdentityStamp } from './home/identity-stamp.js';
export { openNodeHome } from './home/open-node-home.js';
export type { NodeHome, OpenNodeHomeOptions } from './home/open-node-home.js';
// end home
