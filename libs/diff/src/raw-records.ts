/**
 * The `--raw -z` part of `git diff-tree` output (git-diff-tree(1), "RAW OUTPUT FORMAT"):
 * `:<old mode> <new mode> <old oid> <new oid> <status>\0<path>\0[<new path>\0]` per file,
 * then one `\0` before the patch text when `-p` is also given.
 */

/** One raw record. `status` is git's letter; `score` its number (R087 → 87) or null. */
export interface RawRecord {
  readonly oldMode: string;
  readonly newMode: string;
  readonly oldOid: string;
  readonly newOid: string;
  readonly status: 'A' | 'D' | 'M' | 'R' | 'C' | 'T';
  readonly score: number | null;
  readonly oldPath: Buffer;
  readonly newPath: Buffer;
}

/** Records, where the patch text starts, and whether the raw part ended before the input did. */
export interface RawPart {
  readonly records: RawRecord[];
  readonly patchStart: number;
  readonly complete: boolean;
}

const META = /^:([0-7]{6}) ([0-7]{6}) ([0-9a-f]{40}) ([0-9a-f]{40}) ([ADMRCT])([0-9]{0,3})$/;

/**
 * Splits the raw records off the front of git's combined output.
 * @param output - `git diff-tree -r -z --raw -p …` output (possibly cut short)
 * @returns the complete records and the offset of the patch text
 * @throws SyntaxError when a record is malformed
 */
export function parseRawRecords(output: Buffer): RawPart {
  const records: RawRecord[] = [];
  let at = 0;
  while (at < output.length && output[at] === 0x3a /* : */) {
    const fields = readFields(output, at);
    if (fields === null) return { records, patchStart: output.length, complete: false };
    records.push(fields.record);
    at = fields.next;
  }
  if (records.length === 0 && output.length > 0) {
    throw new SyntaxError('diff output does not start with `--raw -z` records');
  }
  if (at >= output.length) return { records, patchStart: at, complete: records.length === 0 };
  if (output[at] !== 0) throw new SyntaxError('raw diff records are not followed by a NUL separator');
  return { records, patchStart: at + 1, complete: true };
}

function readFields(output: Buffer, at: number): { record: RawRecord; next: number } | null {
  const metaEnd = output.indexOf(0, at);
  if (metaEnd < 0) return null;
  const match = META.exec(output.toString('latin1', at, metaEnd));
  if (match === null) throw new SyntaxError('malformed raw diff record');
  const [, oldMode = '', newMode = '', oldOid = '', newOid = '', letter = '', digits = ''] = match;
  const status = letter as RawRecord['status'];
  const first = readPath(output, metaEnd + 1);
  if (first === null) return null;
  const twoPaths = status === 'R' || status === 'C';
  const second = twoPaths ? readPath(output, first.next) : first;
  if (second === null) return null;
  const score = digits === '' ? null : Number.parseInt(digits, 10);
  const record = { oldMode, newMode, oldOid, newOid, status, score, oldPath: first.path, newPath: second.path };
  return { record, next: second.next };
}

function readPath(output: Buffer, at: number): { path: Buffer; next: number } | null {
  const end = output.indexOf(0, at);
  return end < 0 ? null : { path: output.subarray(at, end), next: end + 1 };
}
