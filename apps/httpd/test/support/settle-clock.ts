import { SETTLE_MS } from '@forge-httpd/storage';

/**
 * The clock of the settle rule under a test's control, given to the server as its `now`: a file
 * stamp counts as settled once the test called {@link settle} after the file changed, without
 * sleeping SETTLE_MS. In between the clock stands still, so whatever changes later stays
 * unsettled until the next call, as it would for SETTLE_MS on the real clock.
 */
export class SettleClock {
  private time = Date.now();

  /** The clock's time (ms since the epoch): hand this to the server. */
  readonly now = (): number => this.time;

  /** Moves the clock past the settle window of everything written so far. */
  settle(): void {
    this.time = Date.now() + SETTLE_MS + 1;
  }
}
