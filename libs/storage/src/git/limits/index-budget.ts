/**
 * One memory budget shared by the in-memory indexes of every repository of a `Storage`
 * (branch reachability, last commit per path): each index reports its size in the budget's
 * unit, and past the limit the least recently used ones are dropped (rebuilt on demand).
 */
import { BoundedCache } from '@forge-httpd/bounded-cache';

/** An index the budget can drop. */
export interface BudgetedIndex {
  /** Forgets the index's data (the budget has already released it). */
  drop(): void;
}

/** Least-recently-used indexes of every repository, bounded by their total size. */
export class IndexBudget {
  private readonly users: BoundedCache<BudgetedIndex, number>;

  /** @param limit - size held by every index together (0: nothing is indexed) */
  constructor(readonly limit: number) {
    this.users = new BoundedCache({
      maxWeight: limit,
      weigh: (size) => size,
      onRemove: (owner, _size, reason) => {
        if (reason === 'evicted') owner.drop();
      },
    });
  }

  /** Records `owner`'s index of `size` units as most recently used, dropping others past the limit. */
  use(owner: BudgetedIndex, size: number): void {
    this.users.set(owner, size);
  }

  /** Forgets `owner` (its index was dropped or its repository closed). */
  release(owner: BudgetedIndex): void {
    this.users.delete(owner);
  }
}
