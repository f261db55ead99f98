/**
 * Writes a commit history into a bare repository with `git fast-import`, from a description
 * of each commit's file changes. Paths are bytes (any byte but NUL), so fixtures can hold
 * spaces, tabs, newlines, quotes and non-UTF-8 names; entries can be executables, symlinks
 * and submodules (gitlinks).
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { execGit } from './git-exec.js';

/** One change of a commit, relative to its first parent. */
export type ScratchChange =
  | { readonly path: string | Buffer; readonly content: string | Buffer; readonly kind?: 'file' | 'executable' }
  | { readonly path: string | Buffer; readonly link: string }
  | { readonly path: string | Buffer; readonly submodule: string }
  | { readonly path: string | Buffer; readonly delete: true };

/** One commit. `parents` are indexes of earlier commits (default: the previous one). */
export interface ScratchCommit {
  readonly message: string;
  /** Committer and author time, seconds since the epoch. */
  readonly time: number;
  readonly parents?: readonly number[];
  readonly changes: readonly ScratchChange[];
  readonly author?: { readonly name: string; readonly email: string };
}

/**
 * Creates a bare repository at `gitDir` (if needed) and writes the commits, the last one
 * becoming `refs/heads/master`.
 * @param gitDir - repository directory
 * @param commits - the history, oldest first
 * @returns the commit ids, in input order
 */
export async function writeScratchHistory(gitDir: string, commits: readonly ScratchCommit[]): Promise<string[]> {
  await mkdir(gitDir, { recursive: true });
  await execGit({ gitDir, args: ['init', '--quiet', '--bare', '--initial-branch=master', gitDir] });
  const marks = path.join(gitDir, 'scratch-marks');
  const stream = Buffer.concat(commits.flatMap((commit, index) => commitCommands(commit, index)));
  await execGit({ gitDir, args: ['fast-import', '--quiet', '--force', `--export-marks=${marks}`], input: stream });
  const byMark = new Map<string, string>();
  for (const line of (await readFile(marks, 'utf8')).split('\n')) {
    const [mark, oid] = line.split(' ');
    if (mark !== undefined && oid !== undefined) byMark.set(mark, oid);
  }
  return commits.map((_, index) => byMark.get(`:${index + 1}`) ?? '');
}

function commitCommands(commit: ScratchCommit, index: number): Buffer[] {
  const parents = commit.parents ?? (index === 0 ? [] : [index - 1]);
  const who = commit.author ?? { name: 'Ada Scratch', email: 'ada@example.com' };
  const message = Buffer.from(commit.message, 'utf8');
  const head = [
    ...(parents.length === 0 ? ['reset refs/heads/master'] : []),
    'commit refs/heads/master',
    `mark :${index + 1}`,
    `author ${who.name} <${who.email}> ${commit.time} +0000`,
    `committer ${who.name} <${who.email}> ${commit.time} +0000`,
    `data ${message.length}`,
  ];
  const out: Buffer[] = [Buffer.from(`${head.join('\n')}\n`), message, Buffer.from('\n')];
  parents.forEach((parent, position) => {
    out.push(Buffer.from(`${position === 0 ? 'from' : 'merge'} :${parent + 1}\n`));
  });
  for (const change of commit.changes) out.push(...changeCommands(change));
  out.push(Buffer.from('\n'));
  return out;
}

function changeCommands(change: ScratchChange): Buffer[] {
  const target = quoteForFastImport(typeof change.path === 'string' ? Buffer.from(change.path, 'utf8') : change.path);
  const line = (text: string): Buffer => Buffer.concat([Buffer.from(text), target, Buffer.from('\n')]);
  if ('delete' in change) return [line('D ')];
  if ('submodule' in change) return [line(`M 160000 ${change.submodule} `)];
  const [mode, data] =
    'link' in change ? ['120000', Buffer.from(change.link, 'utf8')] : [change.kind === 'executable' ? '100755' : '100644', toBytes(change.content)];
  return [line(`M ${mode} inline `), Buffer.from(`data ${data.length}\n`), data, Buffer.from('\n')];
}

function toBytes(content: string | Buffer): Buffer {
  return typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
}

/** fast-import reads a quoted path with C escapes; quoting every path is always allowed. */
function quoteForFastImport(name: Buffer): Buffer {
  const out: number[] = [0x22];
  for (const byte of name) {
    if (byte === 0x22 || byte === 0x5c) out.push(0x5c, byte);
    else if (byte === 0x0a) out.push(0x5c, 0x6e);
    else out.push(byte);
  }
  out.push(0x22);
  return Buffer.from(out);
}
