/**
 * `git diff-tree -r -z --numstat` records (git-diff(1) "--numstat"): `<added>\t<deleted>\t`
 * then `<path>\0`, or `\0<old>\0<new>\0` for renames and copies; `-` counts mark binary files.
 */
import type { FileDiff } from '@forge-httpd/diff';

/** Line counts of one file as git reports them; null counts for a binary file. */
export interface NumstatEntry {
  readonly additions: number | null;
  readonly deletions: number | null;
}

/**
 * Parses numstat output.
 * @param output - `git diff-tree -r -z --numstat -M -C` bytes
 * @returns one entry per changed file, in git's order
 */
export function parseNumstat(output: Buffer): NumstatEntry[] {
  const entries: NumstatEntry[] = [];
  let at = 0;
  while (at < output.length) {
    const tab1 = output.indexOf(0x09, at);
    const tab2 = output.indexOf(0x09, tab1 + 1);
    const count = (start: number, end: number): number | null => {
      const text = output.toString('latin1', start, end);
      return text === '-' ? null : Number.parseInt(text, 10);
    };
    entries.push({ additions: count(at, tab1), deletions: count(tab1 + 1, tab2) });
    // A rename/copy has an empty path field followed by two NUL-terminated paths.
    const paths = output[tab2 + 1] === 0 ? 2 : 1;
    at = output[tab2 + 1] === 0 ? tab2 + 2 : tab2 + 1;
    for (let index = 0; index < paths; index++) at = output.indexOf(0, at) + 1;
  }
  return entries;
}

/**
 * What numstat should say for parsed files: a type change's two halves are one entry.
 * @param files - parsed diff
 * @returns entries comparable with {@link parseNumstat}'s
 */
function expectedNumstat(files: readonly FileDiff[]): NumstatEntry[] {
  const entries: NumstatEntry[] = [];
  files.forEach((file, index) => {
    if (file.typeChange && file.status === 'added') return;
    const partner = file.typeChange ? files[index + 1] : undefined;
    const own = countsOf(file);
    const other = partner === undefined ? { additions: 0, deletions: 0 } : countsOf(partner);
    const sum = (a: number | null, b: number | null) => (a === null || b === null ? null : a + b);
    entries.push({ additions: sum(own.additions, other.additions), deletions: sum(own.deletions, other.deletions) });
  });
  return entries;
}

function countsOf(file: FileDiff): NumstatEntry {
  switch (file.content.type) {
    case 'plain':
      return file.content.stats;
    case 'binary':
      return { additions: null, deletions: null };
    default:
      return { additions: 0, deletions: 0 };
  }
}

/**
 * Compares git's numstat with the parsed diff. A pure move/copy has no patch text, so its
 * binary-ness is unknown to the parser: git's `-`/`-` and 0/0 both match it.
 * @param actual - git's entries
 * @param files - parsed diff
 * @returns a description of the first difference, or null when they agree
 */
export function compareNumstat(actual: readonly NumstatEntry[], files: readonly FileDiff[]): string | null {
  const expected = expectedNumstat(files);
  const unpatched = files.filter((file) => !(file.typeChange && file.status === 'added')).map((file) => file.content.type === 'empty');
  if (actual.length !== expected.length) return `git lists ${actual.length} files, parsed ${expected.length}`;
  for (const [index, entry] of actual.entries()) {
    const mine = expected[index];
    const same = entry.additions === mine?.additions && entry.deletions === mine.deletions;
    if (!same && !(unpatched[index] === true && entry.additions === null)) {
      return `file ${index}: git ${JSON.stringify(entry)} parsed ${JSON.stringify(mine)}`;
    }
  }
  return null;
}
