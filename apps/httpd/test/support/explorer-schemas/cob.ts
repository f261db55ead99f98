/**
 * Issues, patches and jobs as radicle-explorer's http-client accepts them (its
 * `lib/repo/issue.ts`, `lib/repo/patch.ts` and `lib/repo.ts`). Fields the explorer does not
 * read (e.g. reactions on reviews) are accepted and ignored.
 */
import { z } from 'zod';
import { author, comment, edit, reaction } from './shared.js';

/** `GET /repos/{rid}/issues/{id}`; items of `/issues`. */
export const issue = z.object({
  id: z.string(),
  author,
  title: z.string(),
  state: z.union([z.object({ status: z.literal('open') }), z.object({ status: z.literal('closed'), reason: z.enum(['other', 'solved']) })]),
  discussion: z.array(comment),
  labels: z.array(z.string()),
  assignees: z.array(author),
});

const patchState = z.union([
  z.object({ status: z.literal('draft') }),
  z.object({ status: z.literal('open'), conflicts: z.array(z.tuple([z.string(), z.string()])).optional() }),
  z.object({ status: z.literal('archived') }),
  z.object({ status: z.literal('merged'), revision: z.string(), commit: z.string() }),
]);

/** A review: `verdict` may be absent or null, `summary` is required and may be null. */
const review = z.object({
  author,
  id: z.string(),
  verdict: z.enum(['accept', 'reject']).nullable().optional(),
  comments: z.array(comment),
  summary: z.string().nullable(),
  timestamp: z.number(),
});

const revision = z.object({
  id: z.string(),
  author,
  description: z.string(),
  edits: z.array(edit),
  reactions: z.array(reaction),
  base: z.string(),
  oid: z.string(),
  refs: z.array(z.string()),
  discussions: z.array(comment),
  reviews: z.array(review),
  timestamp: z.number(),
});

/** `GET /repos/{rid}/patches/{id}`; items of `/patches`. */
export const patch = z.object({
  id: z.string(),
  author,
  title: z.string(),
  state: patchState,
  target: z.string(),
  labels: z.array(z.string()),
  merges: z.array(z.object({ author, revision: z.string(), commit: z.string(), timestamp: z.number() })),
  assignees: z.array(author),
  revisions: z.array(revision),
});

/** `GET /repos/{rid}/jobs/{sha}`. */
export const jobs = z.array(
  z.object({
    jobId: z.string(),
    commit: z.string(),
    runs: z.array(z.object({ runId: z.string(), node: author, status: z.enum(['started', 'failed', 'succeeded']), log: z.string() })),
  }),
);
