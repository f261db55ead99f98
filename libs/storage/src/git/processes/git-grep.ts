/**
 * Fixed-string search of the files of one commit, by `git grep` itself: its output read as it
 * comes and git stopped once one match more than wanted was seen.
 */
import { BusyError, InvalidInputError } from '@forge-httpd/identity';
import { splitTreePath } from '../format/tree-path.js';
import { checkOid, type Oid } from '../objects/oid.js';
import type { GitTarget } from './git-processes.js';
import { streamGit } from './run-git.js';

/** What {@link grepCommit} searches, and how much of it it keeps. */
export interface GrepOptions {
  /** The commit whose files are searched. */
  readonly commit: Oid;
  /** The string looked for (`-F -e`): no NUL, at least one character. */
  readonly text: string;
  /** Only under this file or folder (a literal pathspec); `''` for the whole tree. */
  readonly path: string;
  /** `-i`: git's own case folding. */
  readonly ignoreCase: boolean;
  /** Matches kept; one more seen stops git and marks the answer truncated. */
  readonly maxMatches: number;
  /** Characters of a matching line kept. */
  readonly maxLineChars: number;
  /** git is stopped after this long, and the search ends with a BusyError. */
  readonly timeoutMs: number;
}

/** One matching line: the file, its 1-based line number and its text. */
export interface GrepMatch {
  readonly path: string;
  readonly line: number;
  readonly text: string;
}

/** Output of {@link grepCommit}. */
export interface GrepResult {
  readonly matches: GrepMatch[];
  /** More matches follow the ones kept. */
  readonly truncated: boolean;
}

/** Bytes of a path kept (git's paths are far shorter; a bound all the same). */
const MAX_NAME_BYTES = 64 * 1024;
/** Bytes of a line number (digits). */
const MAX_NUMBER_BYTES = 20;

/**
 * Runs `git grep -F -n -I --no-color [-i] -z -e <text> <commit> -- :(literal)<path>` and
 * parses its output: every matching line of the text files, in path order then line order,
 * each line decoded as UTF-8 (invalid bytes as U+FFFD) and cut to `maxLineChars`.
 * @param at - repository, and the processes git runs under
 * @param options - what to search and the bounds
 * @returns the first `maxMatches` matches, and whether there were more
 * @throws InvalidInputError for a malformed commit id, text or path; BusyError when git runs out of time
 */
export async function grepCommit(at: GitTarget, options: GrepOptions): Promise<GrepResult> {
  checkOid(options.commit);
  if (options.text === '' || options.text.includes('\0')) throw new InvalidInputError('Invalid q: expected a text without NUL');
  const segments = splitTreePath(options.path);
  if (segments === null) throw new InvalidInputError('Invalid path: expected a path in the tree');
  const pathspec = segments.length === 0 ? [] : [`:(literal)${segments.join('/')}`];
  const flags = ['-F', '-n', '-I', '--no-color', '--no-column', '-z', ...(options.ignoreCase ? ['-i'] : [])];
  // git grep takes no `--end-of-options`: the commit is a checked id, the text follows `-e`.
  const args = ['grep', ...flags, '-e', options.text, options.commit, '--', ...pathspec];
  const parser = new GrepOutputParser(options.maxMatches, options.maxLineChars * 4);
  const onTimeout = (): Error => new BusyError('code search took too long');
  // Exit 1: nothing matched.
  await streamGit({ ...at, args, okExitCodes: [0, 1], timeoutMs: options.timeoutMs, onTimeout }, (chunk) => parser.push(chunk));
  return { matches: parser.matches.map((match) => decodeMatch(match, options)), truncated: parser.truncated };
}

interface RawMatch {
  readonly name: Buffer;
  readonly line: number;
  readonly text: Buffer;
}

function decodeMatch(match: RawMatch, options: GrepOptions): GrepMatch {
  // The name is `<commit>:<path>`.
  const path = match.name.subarray(options.commit.length + 1).toString('utf8');
  const text = match.text.toString('utf8');
  // Each character is at most 4 bytes: the kept bytes hold every character that is kept.
  const cut = text.length <= options.maxLineChars ? text : Array.from(text).slice(0, options.maxLineChars).join('');
  return { path, line: match.line, text: cut };
}

/** Reads `git grep -z -n` records (`name\0line\0text\n`), keeping at most `textBytes` of each text. */
class GrepOutputParser {
  readonly matches: RawMatch[] = [];
  truncated = false;
  private field: 0 | 1 | 2 = 0;
  private parts: [Buffer[], Buffer[], Buffer[]] = [[], [], []];
  private sizes: [number, number, number] = [0, 0, 0];

  constructor(
    private readonly maxMatches: number,
    private readonly textBytes: number,
  ) {}

  /** @returns `'stop'` once a match past the bound was seen. */
  push(chunk: Buffer): 'stop' | void {
    let start = 0;
    while (start < chunk.length) {
      const end = chunk.indexOf(this.field === 2 ? 0x0a : 0x00, start);
      const stop = end < 0 ? chunk.length : end;
      this.keep(chunk.subarray(start, stop));
      if (end < 0) return undefined;
      start = end + 1;
      if (this.field < 2) {
        this.field += 1;
        continue;
      }
      if (this.matches.length === this.maxMatches) {
        this.truncated = true;
        return 'stop';
      }
      this.matches.push(this.record());
    }
    return undefined;
  }

  private keep(bytes: Buffer): void {
    const bound = [MAX_NAME_BYTES, MAX_NUMBER_BYTES, this.textBytes][this.field] as number;
    const room = bound - this.sizes[this.field];
    if (room <= 0 || bytes.length === 0) return;
    const kept = Buffer.from(bytes.subarray(0, room));
    this.parts[this.field].push(kept);
    this.sizes[this.field] += kept.length;
  }

  private record(): RawMatch {
    const [name, line, text] = this.parts.map((parts) => Buffer.concat(parts)) as [Buffer, Buffer, Buffer];
    this.parts = [[], [], []];
    this.sizes = [0, 0, 0];
    this.field = 0;
    return { name, line: Number(line.toString('latin1')), text };
  }
}
