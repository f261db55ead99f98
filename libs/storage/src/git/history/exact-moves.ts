/**
 * Patches of diffs that move many files unchanged (a directory renamed, a crate moved).
 *
 * git writes an exact rename or copy (score 100, same blob id and mode on both sides) as a
 * header and nothing else, yet git 2.39 reads both blobs of every such pair to write it: on
 * heartwood's commit 5bc2dc67 (442 pure renames, 8 other files) `diff-tree -p -M -C` takes
 * 37 ms, the same without renames and copies in its output (`--diff-filter=rc`) 4 ms. So when
 * a diff's raw records (which git writes first) show many exact moves and no other rename or
 * copy, the patch is asked of a diff-tree that leaves renames and copies out, and the moves'
 * headers are written here, byte for byte as git writes them; the result is the bytes git's
 * whole output would have been (tested against git). Anything else, or anything that does not
 * line up, answers null and git's whole output is used.
 */

const NUL = 0;
/** Exact moves from which asking git again is worth a second process and a restart of the first. */
export const EXACT_MOVES_WORTH_SPLITTING = 64;
/** The diff-tree option that leaves renames and copies out of the output (lower case: excluded). */
export const WITHOUT_MOVES = '--diff-filter=rc';
/** Bytes of the shortest exact-move record (`:<mode> <mode> <id> <id> R100`, two one-byte paths, three NULs). */
const MOVE_RECORD_MIN_BYTES = 106;
const SECTION_START = Buffer.from('diff --git ', 'latin1');
const NEXT_SECTION = Buffer.from('\ndiff --git ', 'latin1');

/** What a diff's raw records say, for {@link assembleExactMoves}. */
export interface ExactMovesPlan {
  /** The whole raw section: every record and the empty field that ends them. */
  readonly records: Buffer;
  /**
   * What the diff without renames and copies writes first: the other records and the ending
   * empty field, or nothing when every record is an exact move (git writes nothing for an
   * empty diff, and this plan needs no git then).
   */
  readonly keptRecords: Buffer;
  /** Per record in order: the section written here (an exact move), or how many sections git writes (2 for a type change). */
  readonly sections: ReadonlyArray<Buffer | number>;
}

/**
 * Reads a diff's complete raw section (`-z` records and the empty field that ends them).
 * @param records - the raw section, as git wrote it
 * @returns a plan when at least {@link EXACT_MOVES_WORTH_SPLITTING} records are exact moves
 *   and every other record is neither a rename nor a copy; null otherwise
 */
export function planExactMoves(records: Buffer): ExactMovesPlan | null {
  // Most diffs are far too short to hold that many moves: not even parsed.
  if (records.length < EXACT_MOVES_WORTH_SPLITTING * MOVE_RECORD_MIN_BYTES) return null;
  const kept: Buffer[] = [];
  const sections: Array<Buffer | number> = [];
  let moves = 0;
  let at = 0;
  for (;;) {
    const metaEnd = records.indexOf(NUL, at);
    if (metaEnd < 0) return null;
    if (metaEnd === at) {
      if (metaEnd + 1 !== records.length) return null;
      break;
    }
    const fields = records.toString('latin1', at, metaEnd).split(' ');
    if (fields.length !== 5) return null;
    const [oldMode, newMode, oldId, newId, status] = fields as [string, string, string, string, string];
    const paired = status.startsWith('R') || status.startsWith('C');
    const paths: Buffer[] = [];
    let end = metaEnd + 1;
    for (let count = paired ? 2 : 1; count > 0; count -= 1) {
      const pathEnd = records.indexOf(NUL, end);
      if (pathEnd < 0) return null;
      paths.push(records.subarray(end, pathEnd));
      end = pathEnd + 1;
    }
    if (paired) {
      const [from, to] = paths as [Buffer, Buffer];
      const exact = status.slice(1) === '100' && oldId === newId && oldMode.slice(1) === newMode && plainPath(from) && plainPath(to);
      if (!exact) return null;
      sections.push(moveSection(status.startsWith('R') ? 'rename' : 'copy', from, to));
      moves += 1;
    } else {
      kept.push(records.subarray(at, end));
      sections.push(status === 'T' ? 2 : 1);
    }
    at = end;
  }
  if (moves < EXACT_MOVES_WORTH_SPLITTING) return null;
  if (kept.length > 0) kept.push(Buffer.from([NUL]));
  return { records, keptRecords: Buffer.concat(kept), sections };
}

/**
 * git's whole output from the output of the same diff without renames and copies.
 * @param plan - what the whole diff's raw records said
 * @param filtered - the output of the diff with {@link WITHOUT_MOVES} (empty when the plan keeps no record)
 * @returns the raw section, then every file's section in record order; null when the filtered
 *   output does not start with the kept records or has another number of sections
 */
export function assembleExactMoves(plan: ExactMovesPlan, filtered: Buffer): Buffer | null {
  if (filtered.length < plan.keptRecords.length || !filtered.subarray(0, plan.keptRecords.length).equals(plan.keptRecords)) return null;
  const patch = filtered.subarray(plan.keptRecords.length);
  const starts: number[] = [];
  if (patch.length > 0) {
    if (!patch.subarray(0, SECTION_START.length).equals(SECTION_START)) return null;
    // Every line of a section's body starts with a space, `+`, `-`, `\`, `@` or a header
    // keyword, never with `diff --git `: such a line starts the next section.
    for (let start = 0; start >= 0;) {
      starts.push(start);
      const newline = patch.indexOf(NEXT_SECTION, start);
      start = newline < 0 ? -1 : newline + 1;
    }
  }
  const parts: Buffer[] = [plan.records];
  let next = 0;
  for (const section of plan.sections) {
    if (typeof section !== 'number') {
      parts.push(section);
      continue;
    }
    if (next + section > starts.length) return null;
    parts.push(patch.subarray(starts[next], starts[next + section] ?? patch.length));
    next += section;
  }
  return next === starts.length ? Buffer.concat(parts) : null;
}

/**
 * A path git writes as it is (no C-style quoting) whatever its `core.quotePath`: printable ASCII
 * other than `"` and `\`. Other bytes are left to git (with `core.quotePath=false`, as this
 * library runs it, git writes non-ASCII as it is, but controls, `"`, `\` and DEL quoted).
 */
function plainPath(path: Buffer): boolean {
  for (const byte of path) if (byte < 0x20 || byte > 0x7e || byte === 0x22 || byte === 0x5c) return false;
  return path.length > 0;
}

/** The section git writes for an exact rename or copy (`--src-prefix=a/ --dst-prefix=b/`). */
function moveSection(kind: 'rename' | 'copy', from: Buffer, to: Buffer): Buffer {
  const [a, b] = [from.toString('latin1'), to.toString('latin1')];
  return Buffer.from(`diff --git a/${a} b/${b}\nsimilarity index 100%\n${kind} from ${a}\n${kind} to ${b}\n`, 'latin1');
}
