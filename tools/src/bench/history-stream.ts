import { renderLines, type Lines } from './history-content.js';
import type { Content, FileOp } from './history-tree.js';

/** Where fast-import commands go; resolves when the consumer can take more (backpressure). */
export interface StreamSink {
  write(chunk: string | Buffer): Promise<void>;
}

/** Commit header fields; `parents` are fast-import marks, first parent first. */
export interface CommitHeader {
  readonly ref: string;
  readonly mark: number;
  readonly author: { readonly name: string; readonly email: string };
  readonly time: number;
  readonly message: string;
  readonly parents: readonly number[];
}

const AUTHORS = [
  'Ada Lovelace',
  'Alan Turing',
  'Grace Hopper',
  'Edsger Dijkstra',
  'Barbara Liskov',
  'Ken Thompson',
  'Dennis Ritchie',
  'Margaret Hamilton',
  'Donald Knuth',
  'Frances Allen',
  'John Backus',
  'Radia Perlman',
].map((name) => ({ name, email: `${name.toLowerCase().replace(/ /g, '.')}@example.org` }));

/** Author number `index` of a fixed pool (several people, as in a real project). */
export function authorAt(index: number): CommitHeader['author'] {
  return AUTHORS[index % AUTHORS.length] ?? { name: 'Nobody', email: 'nobody@example.org' };
}

/** Writes one `commit` command with its file operations (fast-import format, inline data). */
export async function writeCommit(sink: StreamSink, header: CommitHeader, ops: readonly FileOp[]): Promise<void> {
  const who = `${header.author.name} <${header.author.email}> ${header.time} +0000`;
  const lines = [`commit ${header.ref}`, `mark :${header.mark}`, `author ${who}`, `committer ${who}`];
  lines.push(`data ${Buffer.byteLength(header.message)}`, header.message);
  const [first, ...others] = header.parents;
  if (first !== undefined) lines.push(`from :${first}`);
  for (const other of others) lines.push(`merge :${other}`);
  await sink.write(`${lines.join('\n')}\n`);
  for (const op of ops) await writeFileOp(sink, op);
  await sink.write('\n');
}

async function writeFileOp(sink: StreamSink, op: FileOp): Promise<void> {
  if (op.kind === 'D') return sink.write(`D ${op.path}\n`);
  if (op.kind === 'R') return sink.write(`R ${op.from} ${op.to}\n`);
  const bytes = contentBytes(op.content);
  await sink.write(`M 100644 inline ${op.path}\ndata ${bytes.length}\n`);
  await sink.write(bytes);
  await sink.write('\n');
}

function contentBytes(content: Content): Buffer {
  return Buffer.isBuffer(content) ? content : Buffer.from(renderLines(content));
}

/** Points a lightweight tag (or any ref) at a mark. */
export async function writeReset(sink: StreamSink, ref: string, mark: number): Promise<void> {
  await sink.write(`reset ${ref}\nfrom :${mark}\n\n`);
}

/** Large text file (JSON-looking) of about `size` bytes, edited in place by later commits. */
export function largeJsonLines(size: number): Lines {
  const lines = ['['];
  let bytes = 2;
  for (let i = 0; bytes < size; i++) {
    const line = `  {"id": ${i}, "name": "entry-${i}", "weight": ${(i * 7919) % 1000}, "tags": ["a", "b"]},`;
    lines.push(line);
    bytes += line.length + 1;
  }
  lines.push('  {"id": -1}', ']');
  return lines;
}
