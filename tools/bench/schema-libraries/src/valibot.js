import * as v from 'valibot';
import { toJsonSchema } from '@valibot/to-json-schema';
const int = () => v.pipe(v.number(), v.integer());
const mode = v.picklist(['blob', 'blobExecutable', 'tree', 'link', 'commit']);
const side = v.object({ oid: v.string(), mode });
const line = v.union([
  v.object({ type: v.literal('addition'), line: v.nullable(v.string()), lineNo: int() }),
  v.object({ type: v.literal('deletion'), line: v.nullable(v.string()), lineNo: int() }),
  v.object({ type: v.literal('context'), line: v.nullable(v.string()), lineNoOld: int(), lineNoNew: int() }),
]);
const range = v.object({ start: int(), end: int() });
const hunk = v.object({ header: v.string(), lines: v.array(line), old: range, new: range });
const content = v.union([
  v.object({
    type: v.literal('plain'),
    hunks: v.array(hunk),
    stats: v.object({ additions: int(), deletions: int() }),
    eof: v.picklist(['noneMissing', 'oldMissing', 'newMissing', 'bothMissing']),
    tooLarge: v.optional(v.literal(true)),
  }),
  v.object({ type: v.literal('binary') }),
  v.object({ type: v.literal('empty') }),
]);
const mv = v.picklist(['moved', 'copied']);
const file = v.union([
  v.object({ status: v.literal('added'), path: v.string(), diff: content, new: side }),
  v.object({ status: v.literal('deleted'), path: v.string(), diff: content, old: side }),
  v.object({ status: v.literal('modified'), path: v.string(), diff: content, old: side, new: side }),
  v.object({ status: mv, oldPath: v.string(), newPath: v.string(), current: side }),
  v.object({ status: mv, oldPath: v.string(), newPath: v.string(), old: side, new: side, diff: content }),
]);
const stats = v.object({ filesChanged: int(), insertions: int(), deletions: int() });
const person = v.object({ name: v.string(), email: v.string() });
const commit = v.object({
  id: v.string(),
  author: person,
  summary: v.string(),
  description: v.string(),
  parents: v.array(v.string()),
  committer: v.object({ name: v.string(), email: v.string(), time: int() }),
});
export const commitDetail = v.object({
  commit,
  diff: v.object({ files: v.array(file), stats }),
  files: v.record(v.string(), v.object({ id: v.string(), binary: v.boolean(), content: v.string() })),
  branches: v.array(v.string()),
});
export const check = (x) => v.is(commitDetail, x);
export const jsonSchema = () => toJsonSchema(commitDetail, { target: 'draft-2020-12' });
