/**
 * Diffs as radicle-explorer's http-client accepts them (its `lib/repo/commit.ts`): the `diff`
 * of the commit and `/diff/{base}/{oid}` routes. Note what it does not accept: a content `type`
 * other than plain/binary/empty fails the whole page, and a hunk `header` must be a string.
 * Key order is not checked (JSON objects are unordered for it).
 */
import { z } from 'zod';

const fileSide = z.object({ oid: z.string(), mode: z.enum(['blob', 'blobExecutable', 'tree', 'link', 'commit']) });

const hunkLine = z.union([
  z.object({ line: z.string().nullable(), lineNo: z.number(), type: z.literal('addition') }),
  z.object({ line: z.string().nullable(), lineNo: z.number(), type: z.literal('deletion') }),
  z.object({ line: z.string().nullable(), lineNoNew: z.number(), lineNoOld: z.number(), type: z.literal('context') }),
]);

/** One file's content change; extra keys (our `tooLarge`) are ignored. */
const diffContent = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('plain'),
    stats: z.object({ additions: z.number(), deletions: z.number() }),
    hunks: z.array(z.object({ header: z.string(), lines: z.array(hunkLine) })),
    eof: z.enum(['noneMissing', 'oldMissing', 'newMissing', 'bothMissing']),
  }),
  z.object({ type: z.literal('binary') }),
  z.object({ type: z.literal('empty') }),
]);

const withDiff = { path: z.string(), diff: diffContent };
const paths = { newPath: z.string(), oldPath: z.string() };

/** Any changed file; the explorer tries each form in turn (a plain union, not by status). */
const changedFile = z.union([
  z.object({ ...withDiff, status: z.literal('added'), new: fileSide }),
  z.object({ ...withDiff, status: z.literal('deleted'), old: fileSide }),
  z.object({ ...withDiff, status: z.literal('modified'), new: fileSide, old: fileSide }),
  z.object({ status: z.literal('moved'), ...paths, current: fileSide }),
  z.object({ status: z.literal('moved'), ...paths, old: fileSide, new: fileSide, diff: diffContent }),
  z.object({ status: z.literal('copied'), ...paths }),
  z.object({ status: z.literal('copied'), ...paths, old: fileSide, new: fileSide, diff: diffContent }),
]);

/** Totals of a diff; also the whole body of `/diff/{base}/{oid}/stats`. */
export const diffStats = z.object({ filesChanged: z.number(), insertions: z.number(), deletions: z.number() });

/** `{files, stats}`. */
export const diff = z.object({ files: z.array(changedFile), stats: diffStats });
