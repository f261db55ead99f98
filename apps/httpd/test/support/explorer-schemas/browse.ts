/**
 * Commit, tree and blob responses as radicle-explorer's http-client accepts them (its
 * `lib/repo.ts` and `lib/repo/commit.ts`).
 */
import { z } from 'zod';
import { diff } from './diff.js';

const person = { name: z.string(), email: z.string() };

/** A commit header: list items of `/commits`, `lastCommit` of trees and blobs, `commits` of a diff. */
const commitHeader = z.object({
  id: z.string(),
  author: z.object(person),
  summary: z.string(),
  description: z.string(),
  parents: z.array(z.string()),
  committer: z.object({ ...person, time: z.number() }),
});

/** `GET /repos/{rid}/commits`. */
export const commits = z.array(commitHeader);

/** `GET /repos/{rid}/commits/{sha}`: its `files` entries need no `id`. */
export const commit = z.object({
  commit: commitHeader,
  diff,
  branches: z.array(z.string()),
  files: z.record(z.string(), z.object({ binary: z.boolean(), content: z.string() })),
});

/** `GET /repos/{rid}/diff/{base}/{oid}`: its `files` entries carry their `id`. */
export const rangeDiff = z.object({
  commits: z.array(commitHeader),
  diff,
  files: z.record(z.string(), z.object({ binary: z.boolean(), content: z.string(), id: z.string() })),
});

/** `GET /repos/{rid}/blob/{sha}/{path}` and `/readme/{sha}`: `content` may be absent. */
export const blob = z.object({
  binary: z.boolean(),
  content: z.string().optional(),
  name: z.string(),
  path: z.string(),
  lastCommit: commitHeader,
});

/** `GET /repos/{rid}/tree/{sha}/{path}`. */
export const tree = z.object({
  entries: z.array(z.object({ path: z.string(), name: z.string(), oid: z.string(), kind: z.enum(['blob', 'tree', 'submodule']) })),
  lastCommit: commitHeader,
  name: z.string(),
  path: z.string(),
});

/** `GET /repos/{rid}/stats/tree/{sha}`. */
export const treeStats = z.object({ commits: z.number(), branches: z.number(), contributors: z.number() });

/** `GET /repos/{rid}/stats/commits/{sha}` (served once the lead's route is merged). */
export const commitCount = z.object({ commits: z.number() });

/** `GET /repos/{rid}/activity`. */
export const activity = z.object({ activity: z.array(z.number()) });

/**
 * Not an explorer route: `GET /repos/{rid}/compare/{base}...{head}`. Its commits, diff and files
 * take the explorer's own shapes, so a client shows them with the views it has.
 */
export const compare = z.looseObject({ commits: z.array(commitHeader), diff, files: rangeDiff.shape.files });

/** Not an explorer route: `GET /repos/{rid}/grep/{sha}`. */
export const grep = z.object({ matches: z.array(z.object({ path: z.string(), line: z.number(), text: z.string() })), truncated: z.boolean() });

/**
 * Not explorer routes (forge-httpd's own, docs/api.md "Blame" and "Last commits"): checked with
 * the explorer's commit header, which a browser showing them would reuse.
 */
export const blame = z.object({
  path: z.string(),
  commit: z.string(),
  lines: z.number(),
  ranges: z.array(z.object({ start: z.number(), end: z.number(), commit: z.string(), origPath: z.string(), origStart: z.number() })),
  commits: z.record(z.string(), commitHeader),
});

export const lastCommits = z.object({
  path: z.string(),
  entries: z.array(z.object({ name: z.string(), path: z.string(), commit: commitHeader })),
  truncated: z.boolean(),
});
