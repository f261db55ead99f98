import { BoundedCache } from '@forge-httpd/bounded-cache';

/**
 * Lists read from one of the node's databases, kept while the database's change stamp
 * (`data_version`, one query) is the same: the big ones (a seed node's 10,000 seeding policies,
 * or the 10,000 repositories a node announced) cost a query of thousands of rows and a sort,
 * on every request.
 */
export class StampedAnswers<T> {
  private stamp: string | null = null;
  private readonly answers: BoundedCache<string, T[]>;

  /**
   * @param bounds.lists - lists kept at once (least recently used dropped)
   * @param bounds.items - items kept, all lists together (~150 bytes each in memory; these lists
   *   are outside the memory budget, so a list longer than this is read per request instead)
   */
  constructor(bounds: { readonly lists: number; readonly items: number }) {
    this.answers = new BoundedCache<string, T[]>({ maxEntries: bounds.lists, maxWeight: bounds.items, weigh: (list) => list.length });
  }

  /**
   * The list of `key` as of `stamp`: kept, or read (and kept). The kept list itself is handed
   * out: callers serialize it and never change it.
   * @param stamp - the database's current change stamp
   * @param read - reads the list from the database
   */
  get(stamp: string, key: string, read: () => T[]): T[] {
    if (stamp !== this.stamp) {
      this.answers.clear();
      this.stamp = stamp;
    }
    return this.answers.getOrCompute(key, read);
  }
}
