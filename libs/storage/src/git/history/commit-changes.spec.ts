import { CommitChanges, type CommitChangesEntry } from './commit-changes.js';
import type { Oid } from '../objects/oid.js';

/** Commit `at` of a made-up linear history (ids are hex of the position); newest first, as rev-list lists. */
function linearHistory(count: number): CommitChangesEntry[] {
  const oid = (at: number): Oid => at.toString(16).padStart(40, '0') as Oid;
  const entries: CommitChangesEntry[] = [];
  for (let at = count; at >= 1; at -= 1) {
    entries.push({
      oid: oid(at),
      time: 1_600_000_000 + at,
      parents: at === 1 ? [] : [oid(at - 1)],
      changes: [[`dir/file${at % 7}`, ...(at % 100 === 0 ? ['README'] : [])]],
    });
  }
  return entries;
}

describe('CommitChanges.appendInSlices', () => {
  const history = linearHistory(3000);
  const head = history[0]?.oid as Oid;
  const root = history[history.length - 1]?.oid as Oid;

  it('gives the event loop turns while it appends, holds none of the batch until all of it is in, then answers as one whole append does', async () => {
    const sliced = new CommitChanges();
    let turnsDuringAppend = 0;
    let heldEarly = false;
    let done = false;
    const watch = (): void => {
      if (done) return;
      turnsDuringAppend += 1;
      heldEarly ||= sliced.has(head) || sliced.has(root) || sliced.lastCommitTouching(head, 'README') !== undefined;
      setImmediate(watch);
    };
    setImmediate(watch);
    const appended = sliced.appendInSlices(history, { sliceMs: 0 }).finally(() => {
      done = true;
    });
    expect(await appended).toBe(true);
    expect(turnsDuringAppend).toBeGreaterThan(3);
    expect(heldEarly).toBe(false);

    const whole = new CommitChanges();
    expect(await whole.appendInSlices(history, { sliceMs: Number.POSITIVE_INFINITY })).toBe(true);
    for (const path of ['README', 'dir/file3', 'dir', 'missing']) expect(sliced.lastCommitTouching(head, path)).toBe(whole.lastCommitTouching(head, path));
    expect(sliced.lastCommitTouching(head, 'README')).toBe((3000).toString(16).padStart(40, '0'));
    expect(sliced.size).toBe(whole.size);
  });

  it('stops between slices when told to, leaving the batch unheld', async () => {
    const changes = new CommitChanges();
    let slices = 0;
    expect(await changes.appendInSlices(history, { sliceMs: 0, keepGoing: () => (slices += 1) < 2 })).toBe(false);
    expect(changes.has(head)).toBe(false);
    expect(changes.lastCommitTouching(head, 'README')).toBeUndefined();
  });

  it('leaves the batch unheld when stopped at its last slice, while its ids are being keyed', async () => {
    let total = 0;
    expect(await new CommitChanges().appendInSlices(history, { sliceMs: 0, keepGoing: () => ((total += 1), true) })).toBe(true);
    const changes = new CommitChanges();
    let slices = 0;
    expect(await changes.appendInSlices(history, { sliceMs: 0, keepGoing: () => (slices += 1) < total })).toBe(false);
    expect(slices).toBe(total);
    expect(changes.has(head)).toBe(false);
    expect(changes.has(root)).toBe(false);
    expect(changes.lastCommitTouching(head, 'README')).toBeUndefined();
  });

  it('appends nothing when a parent is neither held nor in the batch', async () => {
    const changes = new CommitChanges();
    expect(await changes.appendInSlices(history.slice(0, 10), { sliceMs: 0 })).toBe(false);
    expect(changes.size).toBe(0);
    expect(changes.has(head)).toBe(false);
  });
});
