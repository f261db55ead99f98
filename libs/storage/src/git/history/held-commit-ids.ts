import { BusyError } from '@forge-httpd/identity';
import type { OidList } from '../objects/oid-list.js';

/** Default bound of {@link HeldCommitIds}: 8 MiB, eight whole 50,000-commit histories. */
export const DEFAULT_HELD_COMMIT_ID_BYTES = 8 * 1024 * 1024;

/**
 * The commit ids held together by answers written while they are read (a range over a whole
 * history, a listing without a page size): each holds 20 bytes per commit, from before its
 * first byte until its last, however slowly its client
 * reads. How many such answers run at once is bounded only by connections, so their ids are
 * bounded here: one more list than the bound allows is refused ({@link BusyError},
 * 503 with `retry-after`) instead of being held. A list is always let in when nothing is held,
 * so a history longer than the whole bound can still be listed, one at a time.
 */
export class HeldCommitIds {
  private held = 0;

  /** @param limit - bytes of ids held together at most (past an empty start) */
  constructor(readonly limit: number = DEFAULT_HELD_COMMIT_ID_BYTES) {}

  /** Bytes of ids held now. */
  get bytes(): number {
    return this.held;
  }

  /**
   * Counts `ids` as held until the returned release is called (calling it again does nothing).
   * @param ids - the list an answer keeps while it is written
   * @returns the release
   * @throws BusyError when holding it would pass the bound
   */
  hold(ids: OidList): () => void {
    const bytes = ids.length === 0 ? 0 : ids.retainedBytes;
    if (bytes === 0) return () => undefined;
    if (this.held > 0 && this.held + bytes > this.limit) throw new BusyError('too many long history walks under way');
    this.held += bytes;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held -= bytes;
    };
  }
}
