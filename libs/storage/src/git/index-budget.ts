/**
 * One memory budget shared by the in-memory indexes of every repository (reachability,
 * last commit per path): each index reports its size in the budget's unit, and past the
 * limit the least recently used ones are dropped (they are rebuilt on demand).
 */

/** An index the budget can drop. */
export interface BudgetedIndex {
  /** Forgets the index's data (the budget has already released it). */
  drop(): void;
}

/** Least-recently-used indexes of every repository, bounded by their total size. */
export class IndexBudget {
  private readonly users = new Map<BudgetedIndex, number>();
  private total = 0;

  constructor(readonly limit: number) {}

  /** Records `owner`'s index of `size` units as most recently used, dropping others past the limit. */
  use(owner: BudgetedIndex, size: number): void {
    this.total -= this.users.get(owner) ?? 0;
    this.users.delete(owner);
    this.users.set(owner, size);
    this.total += size;
    for (const [other, otherSize] of this.users) {
      if (this.total <= this.limit || other === owner) break;
      this.users.delete(other);
      this.total -= otherSize;
      other.drop();
    }
  }

  /** Forgets `owner` (its index was dropped or its repository closed). */
  release(owner: BudgetedIndex): void {
    this.total -= this.users.get(owner) ?? 0;
    this.users.delete(owner);
  }
}
