/**
 * Repository listings, repository info, search and remotes as radicle-explorer's http-client
 * accepts them (its `lib/repo.ts`). The explorer reads the project payload under
 * `xyz.radicle.project`; a flavour F serves it as `xyz.F.project` (docs/decisions.md,
 * "Protocol flavour"), so these schemas take the key from the flavour: under `radicle` they are
 * exactly the explorer's, under `forge` they are the explorer's with that one key renamed.
 */
import { z } from 'zod';
import { author } from './shared.js';

/** The key of the project payload for a flavour. */
function projectKey(flavour: string): string {
  return `xyz.${flavour}.project`;
}

const project = z.object({ name: z.string(), description: z.string(), defaultBranch: z.string() });

const tag = z.object({
  commit: z.string(),
  tagger: z.object({ name: z.string(), email: z.string(), timestamp: z.number() }).optional(),
  message: z.string().optional(),
});

/** `GET /repos/{rid}`; items of `/repos` and `/delegates/{did}/repos`. */
export function repoInfo(flavour: string) {
  return z.object({
    rid: z.string(),
    payloads: z.object({
      [projectKey(flavour)]: z.object({
        data: project,
        meta: z.object({
          head: z.string(),
          patches: z.object({ open: z.number(), draft: z.number(), archived: z.number(), merged: z.number() }),
          issues: z.object({ open: z.number(), closed: z.number() }),
        }),
      }),
    }),
    delegates: z.array(author),
    threshold: z.number(),
    visibility: z.union([z.object({ type: z.literal('public') }), z.object({ type: z.literal('private'), allow: z.array(z.string()).optional() })]),
    seeding: z.number(),
    refs: z.object({ tags: z.record(z.string(), tag), refs: z.record(z.string(), z.string()) }).optional(),
    alias: z.string().optional(),
  });
}

/** Items of `GET /repos/search`: the project payload is optional there. */
export function searchResult(flavour: string) {
  return z.object({
    rid: z.string(),
    payloads: z.object({ [projectKey(flavour)]: project.optional() }),
    delegates: z.array(author),
    seeds: z.number(),
  });
}

/** `GET /repos/{rid}/remotes/{peer}`; items of `/remotes`. */
export const remote = z.object({
  id: z.string(),
  alias: z.string().optional(),
  delegate: z.boolean(),
  heads: z.record(z.string(), z.string()),
  refs: z.record(z.string(), z.string()).optional(),
});
