/**
 * The order in which `git rev-list` (no `--topo-order`/`--date-order`) hands out commits:
 * git keeps the commits still to visit in a list sorted by committer time, newest first, and
 * inserts a commit after every commit of the same time already there
 * (`commit_list_insert_by_date` in git's commit.c, used by `process_parents` in revision.c).
 * A binary heap on (time descending, insertion order ascending) pops in exactly that order.
 */
interface Entry<T> {
  readonly time: number;
  readonly seq: number;
  readonly value: T;
}

/** Commits (or their indices) waiting to be visited, in rev-list's default order. */
export class DateOrderQueue<T> {
  private readonly heap: Entry<T>[] = [];
  private inserted = 0;

  get size(): number {
    return this.heap.length;
  }

  /** Adds `value` behind every queued entry with a time >= `time`. */
  push(value: T, time: number): void {
    const heap = this.heap;
    let at = heap.length;
    const entry = { time, seq: this.inserted++, value };
    heap.push(entry);
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!before(entry, heap[parent] as Entry<T>)) break;
      heap[at] = heap[parent] as Entry<T>;
      at = parent;
    }
    heap[at] = entry;
  }

  /** Removes and returns the next value, undefined when empty. */
  pop(): T | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (top === undefined || last === undefined || heap.length === 0) return top?.value;
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child = right < heap.length && before(heap[right] as Entry<T>, heap[left] as Entry<T>) ? right : left;
      if (!before(heap[child] as Entry<T>, last)) break;
      heap[at] = heap[child] as Entry<T>;
      at = child;
    }
    heap[at] = last;
    return top.value;
  }
}

function before<T>(a: Entry<T>, b: Entry<T>): boolean {
  return a.time > b.time || (a.time === b.time && a.seq < b.seq);
}
