import { execGit } from '@forge-httpd/builder/scratch';

/** A blame range as the spec defines it, computed from git's own per-line output. */
export interface OracleRange {
  start: number;
  end: number;
  commit: string;
  origPath: string;
  origStart: number;
}

const HEADER = /^([0-9a-f]{40}) (\d+) (\d+)/;

/**
 * `git blame --line-porcelain <sha> -- <path>` read line by line (commit, original path and
 * line of every line), then joined into maximal runs: same commit and original path,
 * original lines following on.
 */
export async function gitBlameRanges(gitDir: string, sha: string, path: string): Promise<OracleRange[]> {
  const out = await execGit({ gitDir, args: ['blame', '--line-porcelain', sha, '--', path] });
  return joinLines(parseLinePorcelain(out));
}

interface OracleLine {
  commit: string;
  orig: number;
  path: string;
}

function parseLinePorcelain(out: Buffer): OracleLine[] {
  const lines: OracleLine[] = [];
  let current: { commit: string; orig: number } | null = null;
  let path = '';
  for (const text of out.toString('latin1').split('\n')) {
    if (current === null) {
      const match = HEADER.exec(text);
      if (match !== null) current = { commit: match[1] as string, orig: Number(match[2]) };
    } else if (text.startsWith('filename ')) {
      // execGit runs with core.quotePath=false: only quotes, backslashes and control bytes are escaped.
      path = unquote(text.slice('filename '.length));
    } else if (text.startsWith('\t')) {
      lines.push({ ...current, path: Buffer.from(path, 'latin1').toString('utf8') });
      current = null;
    }
  }
  return lines;
}

function unquote(text: string): string {
  if (!text.startsWith('"')) return text;
  return JSON.parse(text.replace(/\\([0-7]{3})/g, (_, octal: string) => `\\u00${parseInt(octal, 8).toString(16).padStart(2, '0')}`)) as string;
}

function joinLines(lines: readonly OracleLine[]): OracleRange[] {
  const ranges: OracleRange[] = [];
  lines.forEach((line, index) => {
    const last = ranges[ranges.length - 1];
    if (last !== undefined && last.commit === line.commit && last.origPath === line.path && last.origStart + (last.end - last.start) + 1 === line.orig)
      last.end = index + 1;
    else ranges.push({ start: index + 1, end: index + 1, commit: line.commit, origPath: line.path, origStart: line.orig });
  });
  return ranges;
}

/** `git log -1 --format=%H <sha> -- <path>`: the blob page's `lastCommit` for a path. */
export async function gitLastCommit(gitDir: string, sha: string, path: string): Promise<string> {
  const out = await execGit({ gitDir, args: ['--literal-pathspecs', 'log', '-1', '--format=%H', sha, '--', path] });
  return out.toString('latin1').trim();
}
