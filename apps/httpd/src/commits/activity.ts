/** The activity window (docs/api.md "Limits": 52 weeks), in seconds. */
export const ACTIVITY_WINDOW_SECONDS = 52 * 7 * 24 * 60 * 60;

/**
 * Keeps the commit times strictly newer than 52 weeks before `now` (docs/radicle-httpd.md §0.2 item 6).
 * @param times - committer times in walk order
 * @param nowSeconds - the current time in seconds
 * @returns the times in the window, order kept
 */
export function timesInActivityWindow(times: readonly number[], nowSeconds: number): number[] {
  const threshold = nowSeconds - ACTIVITY_WINDOW_SECONDS;
  return times.filter((time) => time > threshold);
}
