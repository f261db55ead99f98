// The commit-detail schema in TypeBox's `Type` builder, shared by the TypeBox entries: 0.34 and
// 1.x have the same builder API, so only how each entry checks differs.
export function commitDetailSchema(T) {
  const mode = T.Union(['blob', 'blobExecutable', 'tree', 'link', 'commit'].map((m) => T.Literal(m)));
  const side = T.Object({ oid: T.String(), mode });
  const line = T.Union([
    T.Object({ type: T.Literal('addition'), line: T.Union([T.String(), T.Null()]), lineNo: T.Integer() }),
    T.Object({ type: T.Literal('deletion'), line: T.Union([T.String(), T.Null()]), lineNo: T.Integer() }),
    T.Object({ type: T.Literal('context'), line: T.Union([T.String(), T.Null()]), lineNoOld: T.Integer(), lineNoNew: T.Integer() }),
  ]);
  const range = T.Object({ start: T.Integer(), end: T.Integer() });
  const hunk = T.Object({ header: T.String(), lines: T.Array(line), old: range, new: range });
  const content = T.Union([
    T.Object({
      type: T.Literal('plain'),
      hunks: T.Array(hunk),
      stats: T.Object({ additions: T.Integer(), deletions: T.Integer() }),
      eof: T.Union(['noneMissing', 'oldMissing', 'newMissing', 'bothMissing'].map((m) => T.Literal(m))),
      tooLarge: T.Optional(T.Literal(true)),
    }),
    T.Object({ type: T.Literal('binary') }),
    T.Object({ type: T.Literal('empty') }),
  ]);
  const mv = T.Union([T.Literal('moved'), T.Literal('copied')]);
  const file = T.Union([
    T.Object({ status: T.Literal('added'), path: T.String(), diff: content, new: side }),
    T.Object({ status: T.Literal('deleted'), path: T.String(), diff: content, old: side }),
    T.Object({ status: T.Literal('modified'), path: T.String(), diff: content, old: side, new: side }),
    T.Object({ status: mv, oldPath: T.String(), newPath: T.String(), current: side }),
    T.Object({ status: mv, oldPath: T.String(), newPath: T.String(), old: side, new: side, diff: content }),
  ]);
  const stats = T.Object({ filesChanged: T.Integer(), insertions: T.Integer(), deletions: T.Integer() });
  const person = T.Object({ name: T.String(), email: T.String() });
  const commit = T.Object({
    id: T.String(),
    author: person,
    summary: T.String(),
    description: T.String(),
    parents: T.Array(T.String()),
    committer: T.Object({ name: T.String(), email: T.String(), time: T.Integer() }),
  });
  return T.Object({
    commit,
    diff: T.Object({ files: T.Array(file), stats }),
    files: T.Record(T.String(), T.Object({ id: T.String(), binary: T.Boolean(), content: T.String() })),
    branches: T.Array(T.String()),
  });
}
