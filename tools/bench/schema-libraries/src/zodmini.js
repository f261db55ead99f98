import * as z from 'zod/mini';
const int = () => z.int();
const mode = z.enum(['blob', 'blobExecutable', 'tree', 'link', 'commit']);
const side = z.object({ oid: z.string(), mode });
const line = z.union([
  z.object({ type: z.literal('addition'), line: z.nullable(z.string()), lineNo: int() }),
  z.object({ type: z.literal('deletion'), line: z.nullable(z.string()), lineNo: int() }),
  z.object({ type: z.literal('context'), line: z.nullable(z.string()), lineNoOld: int(), lineNoNew: int() }),
]);
const range = z.object({ start: int(), end: int() });
const hunk = z.object({ header: z.string(), lines: z.array(line), old: range, new: range });
const content = z.union([
  z.object({
    type: z.literal('plain'),
    hunks: z.array(hunk),
    stats: z.object({ additions: int(), deletions: int() }),
    eof: z.enum(['noneMissing', 'oldMissing', 'newMissing', 'bothMissing']),
    tooLarge: z.optional(z.literal(true)),
  }),
  z.object({ type: z.literal('binary') }),
  z.object({ type: z.literal('empty') }),
]);
const mv = z.enum(['moved', 'copied']);
const file = z.union([
  z.object({ status: z.literal('added'), path: z.string(), diff: content, new: side }),
  z.object({ status: z.literal('deleted'), path: z.string(), diff: content, old: side }),
  z.object({ status: z.literal('modified'), path: z.string(), diff: content, old: side, new: side }),
  z.object({ status: mv, oldPath: z.string(), newPath: z.string(), current: side }),
  z.object({ status: mv, oldPath: z.string(), newPath: z.string(), old: side, new: side, diff: content }),
]);
const stats = z.object({ filesChanged: int(), insertions: int(), deletions: int() });
const person = z.object({ name: z.string(), email: z.string() });
const commit = z.object({
  id: z.string(),
  author: person,
  summary: z.string(),
  description: z.string(),
  parents: z.array(z.string()),
  committer: z.object({ name: z.string(), email: z.string(), time: int() }),
});
export const commitDetail = z.object({
  commit,
  diff: z.object({ files: z.array(file), stats }),
  files: z.record(z.string(), z.object({ id: z.string(), binary: z.boolean(), content: z.string() })),
  branches: z.array(z.string()),
});
export const check = (x) => commitDetail.safeParse(x).success;
export const jsonSchema = () => z.toJSONSchema(commitDetail, { target: 'draft-2020-12' });
