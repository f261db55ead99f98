/**
 * Line attribution of one file at one commit, by git itself: `git blame --incremental`, whose
 * groups carry the same commit, original path and original line as `--porcelain` names for
 * each line, without the lines' text (so its output grows with the number of groups, not with
 * the file). Groups arrive in the order git settles them; they are sorted by final line and
 * joined into maximal runs here.
 */
import { BusyError, ProcessFailedError, TooLargeError } from '@forge-httpd/identity';
import { isOid, invalidOid, type Oid } from '../objects/oid.js';
import { splitTreePath } from '../format/tree-path.js';
import { streamGit } from '../processes/run-git.js';
import type { GitTarget } from '../processes/git-processes.js';

/** Lines `start..end` (1-based, inclusive) of the file came from `origPath` of `commit`, from line `origStart` on. */
export interface BlameRange {
  readonly start: number;
  readonly end: number;
  readonly commit: Oid;
  /** The original path's bytes as a latin1 string (git's names are bytes). */
  readonly origPath: string;
  readonly origStart: number;
}

/** What {@link blameFile} reads. */
export interface BlameRequest {
  readonly commit: Oid;
  /** Validated, `/`-separated, not empty (UTF-8). */
  readonly path: string;
  /** Lines of the file at `commit` (what the ranges must cover). */
  readonly lines: number;
  /** Past this long git is stopped and the answer is a `BusyError`. */
  readonly timeoutMs: number;
  /** Most bytes of git output read; past it, a `TooLargeError`. */
  readonly maxOutputBytes: number;
  /**
   * Called once for each commit named, as git names it: reads of the commits can run while git
   * is still blaming (on another core), instead of after it.
   */
  readonly onCommit?: (commit: Oid) => void;
}

const GROUP_HEADER = /^([0-9a-f]{40}) (\d+) (\d+) (\d+)$/;

/**
 * `git blame --incremental <commit> -- <path>` with git's defaults, as maximal ranges in file order.
 * @param at - repository, and the processes git runs under
 * @param request - commit, path, line count and bounds
 * @returns ranges covering lines 1..`lines`, no gap, no overlap
 * @throws BusyError past the time limit; TooLargeError past the output bound; ProcessFailedError
 *   when git fails or its groups do not cover the file
 */
export async function blameFile(at: GitTarget, request: BlameRequest): Promise<BlameRange[]> {
  if (!isOid(request.commit)) throw invalidOid();
  const segments = splitTreePath(request.path);
  if (segments === null || segments.length === 0) throw new ProcessFailedError('invalid blame path');
  if (request.lines === 0) return [];
  // The path is a literal name after `--`; the commit a checked id.
  const args = ['--literal-pathspecs', 'blame', '--incremental', request.commit, '--', segments.join('/')];
  const parser = new IncrementalBlameParser(request.onCommit);
  let read = 0;
  let tooLarge = false;
  try {
    await streamGit({ ...at, args, timeoutMs: request.timeoutMs, onTimeout: () => new BusyError('blame took too long') }, (chunk) => {
      read += chunk.length;
      if (read > request.maxOutputBytes) {
        tooLarge = true;
        return 'stop';
      }
      parser.push(chunk);
      return undefined;
    });
  } catch (error) {
    if (error instanceof BusyError) throw new BusyError('blame took too long');
    throw error;
  }
  if (tooLarge) throw new TooLargeError('blame output too large');
  return joinRuns(parser.finish(), request.lines);
}

/** One `--incremental` group: `count` lines from `final` on (1-based). */
interface BlameGroup {
  readonly commit: Oid;
  readonly orig: number;
  readonly final: number;
  readonly count: number;
  readonly origPath: string;
}

/** Reads `--incremental` output as it arrives (latin1: names stay bytes). */
class IncrementalBlameParser {
  private partial = '';
  private pending: Omit<BlameGroup, 'origPath'> | null = null;
  private readonly groups: BlameGroup[] = [];
  private readonly named = new Set<string>();

  constructor(private readonly onCommit: ((commit: Oid) => void) | undefined) {}

  push(chunk: Buffer): void {
    const lines = (this.partial + chunk.toString('latin1')).split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) this.line(line);
  }

  finish(): BlameGroup[] {
    if (this.partial !== '') this.line(this.partial);
    if (this.pending !== null) throw new ProcessFailedError('blame output ended inside a group');
    return this.groups;
  }

  private line(line: string): void {
    if (this.pending === null) {
      const match = GROUP_HEADER.exec(line);
      if (match === null) throw new ProcessFailedError('unexpected blame output');
      const [, commit, orig, final, count] = match;
      this.pending = { commit: ownCopy(commit as string) as Oid, orig: Number(orig), final: Number(final), count: Number(count) };
      if (this.onCommit !== undefined && !this.named.has(this.pending.commit)) {
        this.named.add(this.pending.commit);
        this.onCommit(this.pending.commit);
      }
      return;
    }
    // Header lines (author, summary, previous, boundary…) come once per commit; `filename` ends a group.
    if (!line.startsWith('filename ')) return;
    this.groups.push({ ...this.pending, origPath: unquoteName(line.slice('filename '.length)) });
    this.pending = null;
  }
}

/**
 * Sorts groups by final line and joins neighbours of the same commit and original path whose
 * original lines follow on.
 * @throws ProcessFailedError when the groups leave a gap, overlap or pass `lines`
 */
function joinRuns(groups: BlameGroup[], lines: number): BlameRange[] {
  groups.sort((a, b) => a.final - b.final);
  const ranges: BlameRange[] = [];
  let next = 1;
  for (const group of groups) {
    if (group.final !== next || group.count < 1) throw new ProcessFailedError('blame groups do not cover the file');
    const last = ranges[ranges.length - 1];
    const end = group.final + group.count - 1;
    if (last !== undefined && last.commit === group.commit && last.origPath === group.origPath && last.origStart + (last.end - last.start + 1) === group.orig) {
      ranges[ranges.length - 1] = { ...last, end };
    } else {
      ranges.push({ start: group.final, end, commit: group.commit, origPath: group.origPath, origStart: group.orig });
    }
    next = end + 1;
  }
  if (next !== lines + 1) throw new ProcessFailedError('blame groups do not cover the file');
  return ranges;
}

const ESCAPES: Readonly<Record<string, number>> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/**
 * A name as git writes it (`quote_c_style`: in double quotes with C escapes and octal bytes
 * when it holds unusual bytes, else verbatim), back to its bytes as a latin1 string.
 */
function unquoteName(text: string): string {
  if (!text.startsWith('"') || !text.endsWith('"') || text.length < 2) return ownCopy(text);
  const bytes: number[] = [];
  const body = text.slice(1, -1);
  for (let at = 0; at < body.length; at += 1) {
    const char = body.charCodeAt(at);
    if (char !== 92) {
      bytes.push(char);
      continue;
    }
    const next = body[at + 1] ?? '';
    const octal = /^[0-7]{3}/.exec(body.slice(at + 1, at + 4));
    if (octal !== null) {
      bytes.push(parseInt(octal[0], 8) & 0xff);
      at += 3;
    } else {
      bytes.push(ESCAPES[next] ?? next.charCodeAt(0));
      at += 1;
    }
  }
  return Buffer.from(bytes).toString('latin1');
}

/** A string of its own, not a slice keeping a whole output chunk alive. */
function ownCopy(text: string): string {
  return Buffer.from(text, 'latin1').toString('latin1');
}
