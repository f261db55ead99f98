/**
 * The last few steps by which a store's COB ref index was updated, so what was worked out for
 * an earlier index (a kind's listing, its counts and order) can follow the refs that changed
 * since instead of visiting every object of a big tracker again after one new comment.
 */
import type { Oid } from '@forge-httpd/storage';
import type { CobRefChanges, CobRefIndex } from '../read/cob-ref-index.js';

/** Steps kept: a listing not asked for over more ref changes than this is confirmed whole. */
const MAX_STEPS = 32;
/** Most changed refs summed over the steps between two indexes; past it they are not followed. */
const MAX_CHANGED_REFS = 1024;

/** One update of the index: from and to are index numbers, so no old index is kept alive. */
interface Step {
  readonly from: number;
  readonly to: number;
  readonly changes: CobRefChanges;
}

export class RefIndexHistory {
  private readonly numbers = new WeakMap<CobRefIndex, number>();
  private nextNumber = 0;
  private readonly steps: Step[] = [];

  /**
   * Records that `to` replaced `from` as the store's index.
   * @param changes - what differs between them; null when `to` was indexed whole
   */
  record(from: CobRefIndex | undefined, to: CobRefIndex, changes: CobRefChanges | null): void {
    if (from === to) return;
    const toNumber = this.numberOf(to);
    if (from === undefined || changes === null) return;
    this.steps.push({ from: this.numberOf(from), to: toNumber, changes });
    if (this.steps.length > MAX_STEPS) this.steps.shift();
  }

  /**
   * What changed from `from` to `to`, summed over the recorded steps between them; undefined
   * when they are not joined by recorded steps (`to` was indexed whole since, `from` is not an
   * earlier index, or too many steps or refs lie between).
   */
  changesBetween(from: CobRefIndex, to: CobRefIndex): CobRefChanges | undefined {
    if (from === to) return { refs: new Set(), objects: new Map() };
    const fromNumber = this.numbers.get(from);
    let current = this.numbers.get(to);
    if (fromNumber === undefined || current === undefined) return undefined;
    const between: CobRefChanges[] = [];
    for (let i = this.steps.length - 1; i >= 0 && current !== fromNumber; i--) {
      const step = this.steps[i] as Step;
      if (step.to !== current) continue;
      between.push(step.changes);
      current = step.from;
    }
    if (current !== fromNumber) return undefined;
    return between.length === 1 ? between[0] : merged(between);
  }

  private numberOf(index: CobRefIndex): number {
    let number = this.numbers.get(index);
    if (number === undefined) {
      number = this.nextNumber++;
      this.numbers.set(index, number);
    }
    return number;
  }
}

/** The union of several steps' changes; undefined past {@link MAX_CHANGED_REFS}. */
function merged(steps: readonly CobRefChanges[]): CobRefChanges | undefined {
  const refs = new Set<string>();
  const objects = new Map<string, Set<Oid>>();
  for (const step of steps) {
    for (const name of step.refs) refs.add(name);
    if (refs.size > MAX_CHANGED_REFS) return undefined;
    for (const [type, ids] of step.objects) {
      const all = objects.get(type) ?? new Set<Oid>();
      for (const id of ids) all.add(id);
      objects.set(type, all);
    }
  }
  return { refs, objects };
}
