/**
 * The blob ids named by the raw records that open `git diff-tree -r -z --raw -p` output, read
 * as the output arrives. git writes every raw record (after rename and copy detection) before
 * it computes the first patch, so a caller can start reading those blobs while git is still
 * writing patches: on a big commit the records are complete early in the diff.
 *
 * Format (git-diff-tree(1), "Raw output format", with `-z`): each record is
 * `:<old mode> <new mode> <old id> <new id> <status>` NUL `<path>` NUL, plus a second path and
 * NUL for a rename or copy (status `R…`/`C…`); an empty field (a lone NUL) ends the records.
 */
import { isOid, type Oid, ZERO_OID } from '../objects/oid.js';

const NUL = 0;
/** Sides that are not blobs: a submodule's commit (160000) and, with `-t`, a tree (040000). */
const NOT_BLOB_MODES: ReadonlySet<string> = new Set(['160000', '040000']);

/** Reads raw records from the output of one diff as it arrives. */
export class RawRecordBlobIds {
  private rest: Buffer = Buffer.alloc(0);
  /** Offset in the whole output of `rest`'s first byte. */
  private restOffset: number;
  private skip: number;
  private pathsLeft = 0;
  private finished = false;
  private end: number | null = null;
  private readonly ids = new Set<Oid>();

  /** @param skipBytes - bytes before the first record (a header of the caller's own) */
  constructor(skipBytes: number) {
    this.skip = skipBytes;
    this.restOffset = skipBytes;
  }

  /** Offset in the whole output just past the empty field that ended the records; null until then. */
  get recordsEnd(): number | null {
    return this.end;
  }

  /**
   * Feeds the next bytes of output.
   * @returns the distinct blob ids of every record (zero ids and non-blob modes left out), in
   *   record order, once the records have ended — exactly once; null before that, after that,
   *   and for output that is not raw records (the reader then gives up quietly)
   */
  push(chunk: Buffer): Oid[] | null {
    if (this.finished) return null;
    let bytes = chunk;
    if (this.skip > 0) {
      const skipped = Math.min(this.skip, bytes.length);
      this.skip -= skipped;
      bytes = bytes.subarray(skipped);
    }
    const buffer = this.rest.length === 0 ? bytes : Buffer.concat([this.rest, bytes]);
    let at = 0;
    for (;;) {
      const end = buffer.indexOf(NUL, at);
      if (end < 0) break;
      const field = buffer.subarray(at, end);
      at = end + 1;
      if (this.pathsLeft > 0) {
        this.pathsLeft -= 1;
        continue;
      }
      if (field.length === 0) {
        this.finished = true;
        this.end = this.restOffset + at;
        return [...this.ids];
      }
      if (!this.record(field.toString('latin1'))) {
        this.finished = true;
        return null;
      }
    }
    // Only the unfinished field is kept, copied so the caller's chunk is not pinned.
    this.rest = Buffer.from(buffer.subarray(at));
    this.restOffset += at;
    return null;
  }

  private record(text: string): boolean {
    const parts = text.split(' ');
    if (parts.length !== 5 || !text.startsWith(':')) return false;
    const [oldMode, newMode, oldId, newId, status] = parts as [string, string, string, string, string];
    if (!isOid(oldId) || !isOid(newId)) return false;
    if (oldId !== ZERO_OID && !NOT_BLOB_MODES.has(oldMode.slice(1))) this.ids.add(oldId);
    if (newId !== ZERO_OID && !NOT_BLOB_MODES.has(newMode)) this.ids.add(newId);
    this.pathsLeft = status.startsWith('R') || status.startsWith('C') ? 2 : 1;
    return true;
  }
}
