/**
 * The order of issue and patch listings: newest first by the root change's time, ties by id.
 * Pages evaluated before the whole listing (root times from git) and the whole listing
 * (evaluated views) must agree on it, so both sort with this.
 * @returns negative when the first object comes first, like `Array.prototype.sort` expects
 */
export function compareNewestFirst(timeA: number, idA: string, timeB: number, idB: string): number {
  return timeB - timeA || (idA < idB ? -1 : idA > idB ? 1 : 0);
}
