/**
 * Building blocks shared by several responses, as radicle-explorer's http-client accepts them
 * (its `lib/shared.ts` and `lib/repo/comment.ts`). Written from what those schemas accept, in
 * zod 4 (the library and version the explorer parses with), so acceptance is the same: objects
 * ignore unknown keys, `optional` means the key may be absent (never null), `nullable` allows null.
 */
import { z } from 'zod';

/** A person or node reference: `{id, alias?}`. */
export const author = z.object({ id: z.string(), alias: z.string().optional() });

/** Scope of an `allow` policy. */
const seedingScope = z.enum(['followed', 'all']);

/** A repository's seeding policy: `{policy: "block"}` or `{policy: "allow", scope}`. */
export const seedingPolicy = z.union([z.object({ policy: z.literal('block') }), z.object({ policy: z.literal('allow'), scope: seedingScope })]);

const defaultSeedingPolicy = z.union([z.object({ default: z.literal('block') }), z.object({ default: z.literal('allow'), scope: seedingScope.optional() })]);

const rate = z.object({ fillRate: z.number(), capacity: z.number() });

/** The node's configuration as `GET /node` reports it (the control socket's `config`). */
export const nodeConfig = z.object({
  alias: z.string(),
  peers: z.discriminatedUnion('type', [z.object({ type: z.literal('static') }), z.object({ type: z.literal('dynamic') })]),
  listen: z.array(z.string()),
  connect: z.array(z.string()),
  externalAddresses: z.array(z.string()),
  proxy: z.string().optional(),
  onion: z.union([z.object({ mode: z.literal('proxy'), address: z.string() }), z.object({ mode: z.literal('forward') })]).optional(),
  log: z.enum(['ERROR', 'WARN', 'INFO', 'DEBUG', 'TRACE']),
  network: z.enum(['main', 'test']),
  relay: z.enum(['always', 'never', 'auto']),
  limits: z.object({
    routingMaxSize: z.number(),
    routingMaxAge: z.number(),
    fetchConcurrency: z.number(),
    gossipMaxAge: z.number(),
    maxOpenFiles: z.number(),
    rate: z.object({ inbound: rate, outbound: rate }),
    connection: z.object({ inbound: z.number(), outbound: z.number() }),
  }),
  workers: z.number(),
  seedingPolicy: defaultSeedingPolicy,
});

const span = z.object({ start: z.number(), end: z.number() });

/** A line or character range of a code comment's location. */
const codeRange = z.union([z.object({ type: z.literal('lines'), range: span }), z.object({ type: z.literal('chars'), line: z.number(), range: span })]);

/** Where a code comment points. */
const codeLocation = z.object({
  commit: z.string(),
  path: z.string(),
  old: codeRange.optional(),
  new: codeRange.optional(),
});

/** An embedded file of a comment or edit. */
const embed = z.object({ name: z.string(), content: z.string() });

/** One edit of a comment or revision description. */
export const edit = z.object({ author, body: z.string(), embeds: z.array(embed), timestamp: z.number() });

/** A reaction: an emoji and who reacted. */
export const reaction = z.object({ emoji: z.string(), authors: z.array(author) });

/** A comment of an issue thread, a revision discussion or a review. */
export const comment = z.object({
  id: z.string(),
  author,
  body: z.string(),
  edits: z.array(edit),
  embeds: z.array(embed),
  reactions: z.array(reaction),
  timestamp: z.number(),
  location: codeLocation.nullable().optional(),
  resolved: z.boolean(),
  replyTo: z.string().nullable(),
});
