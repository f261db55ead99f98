/**
 * The write side of @forge-httpd/storage, for tools that build node homes (the builder, tests):
 * git objects and refs written byte for byte, signed refs, the node's SQLite databases and
 * config.json. A server reading a home never needs it.
 */
export { formatSignedRefs } from './sigrefs/format-signed-refs.js';
export { hashObject } from './git/objects/hash-object.js';
export { writeObject } from './git/write/write-object.js';
export { serializeTree } from './git/format/serialize-tree.js';
export type { TreeEntryInput, TreeEntryMode } from './git/format/serialize-tree.js';
export { serializeCommit } from './git/format/serialize-commit.js';
export type { CommitInput } from './git/format/serialize-commit.js';
export { serializeTag } from './git/format/serialize-tag.js';
export type { TagInput } from './git/format/serialize-tag.js';
export { initBareRepository } from './git/write/init-bare-repository.js';
export type { InitBareOptions } from './git/write/init-bare-repository.js';
export { updateRefs } from './git/write/update-refs.js';
export type { DirectRefUpdate, RefUpdate } from './git/write/update-refs.js';
export { repackRepository } from './git/write/repack-repository.js';
export { createCobCacheDatabase, createNodeDatabase, createNotificationsDatabase, createPoliciesDatabase } from './db/create-databases.js';
export type { WritableDatabase } from './db/create-databases.js';
export { insertAddress, insertFollowPolicy, insertNode, insertRouting, insertSeedingPolicy } from './db/row-writers.js';
export type { AddressRow, FollowPolicyRow, NodeRow, RoutingRow } from './db/row-writers.js';
export { DEFAULT_PREFERRED_SEEDS, formatProfileConfig } from './config/format-profile-config.js';
export type { ProfileConfigOptions } from './config/format-profile-config.js';
export { writeSignedRefs, writeSignedRefsCommit } from './sigrefs/write-signed-refs.js';
export type { WriteSignedRefsOptions } from './sigrefs/write-signed-refs.js';
