import { compareUtf8 } from '@forge-httpd/identity';
import type { Oid } from '@forge-httpd/storage';

/** The minimum a DAG node needs for ordering: its id, history parents and time. */
export interface DagEntry {
  readonly id: Oid;
  readonly parents: readonly Oid[];
  readonly timestamp: number;
}

/**
 * The change graph of one object: edges exist only between loaded changes, like radicle-dag
 * (a change whose parent failed to load keeps its other edges; docs/node-home.md §6.5).
 */
export class ChangeGraph<T extends DagEntry> {
  private readonly nodes: Map<Oid, T>;
  private readonly dependents = new Map<Oid, Set<Oid>>();

  constructor(entries: Iterable<T>) {
    this.nodes = new Map();
    for (const entry of entries) this.nodes.set(entry.id, entry);
    for (const entry of this.nodes.values()) {
      for (const parent of entry.parents) {
        if (!this.nodes.has(parent)) continue;
        let set = this.dependents.get(parent);
        if (set === undefined) this.dependents.set(parent, (set = new Set()));
        set.add(entry.id);
      }
    }
  }

  /** Returns the entry with this id, if it is (still) in the graph. */
  get(id: Oid): T | undefined {
    return this.nodes.get(id);
  }

  /** Ids of every entry still in the graph. */
  keys(): IterableIterator<Oid> {
    return this.nodes.keys();
  }

  /** Direct dependents (children) still in the graph, in ascending oid order. */
  childrenOf(id: Oid): Oid[] {
    const set = this.dependents.get(id);
    if (set === undefined) return [];
    return [...set].filter((child) => this.nodes.has(child)).sort(compareOids);
  }

  /**
   * Removes an entry and, recursively, everything that depends on it (radicle-dag `remove`).
   * @returns how many entries were removed
   */
  remove(id: Oid): number {
    const stack = [id];
    let removed = 0;
    while (stack.length > 0) {
      const next = stack.pop() as Oid;
      if (!this.nodes.delete(next)) continue;
      removed += 1;
      for (const child of this.dependents.get(next) ?? []) stack.push(child);
    }
    return removed;
  }

  /** Ids of entries reachable backwards (through parents) from `id`, excluding `id`. */
  ancestorsOf(id: Oid): Set<Oid> {
    return this.walk(id, (entry) => entry.parents);
  }

  /** Ids of entries reachable forwards (through dependents) from `id`, excluding `id`. */
  descendantsOf(id: Oid): Set<Oid> {
    return this.walk(id, (entry) => this.childrenOf(entry.id));
  }

  /** Entries nothing in the graph depends on, ascending (the object's tips). */
  tips(): Oid[] {
    return [...this.nodes.keys()].filter((id) => this.childrenOf(id).length === 0).sort(compareOids);
  }

  private walk(id: Oid, next: (entry: T) => readonly Oid[]): Set<Oid> {
    const seen = new Set<Oid>();
    const start = this.nodes.get(id);
    const stack = start === undefined ? [] : [...next(start)];
    while (stack.length > 0) {
      const key = stack.pop() as Oid;
      const entry = this.nodes.get(key);
      if (entry === undefined || seen.has(key)) continue;
      seen.add(key);
      stack.push(...next(entry));
    }
    return seen;
  }
}

/** Orders oids as git/radicle do: by their bytes, i.e. lower-case hex order. */
export function compareOids(a: string, b: string): number {
  return compareUtf8(a, b);
}
