import { change, oid } from '../testing/fixtures.testing.js';
import { ChangeGraph } from './change-graph.js';
import { orderChanges } from './order-changes.js';

function order(changes: ReturnType<typeof change>[], root = oid(1)): number[] {
  return orderChanges(new ChangeGraph(changes), root).map((id) => parseInt(id, 16));
}

describe('orderChanges', () => {
  it('applies concurrent children of the root in descending oid order regardless of time', () => {
    const changes = [
      change({ id: oid(1), actions: [] }),
      change({ id: oid(2), parents: [oid(1)], timestamp: 10, actions: [] }),
      change({ id: oid(3), parents: [oid(1)], timestamp: 20, actions: [] }),
      change({ id: oid(4), parents: [oid(1)], timestamp: 5, actions: [] }),
    ];
    expect(order(changes)).toEqual([4, 3, 2]);
  });

  it('applies concurrent siblings below the first level oldest first with the oid as tie-break', () => {
    const changes = [
      change({ id: oid(1), actions: [] }),
      change({ id: oid(2), parents: [oid(1)], actions: [] }),
      change({ id: oid(5), parents: [oid(2)], timestamp: 30, actions: [] }),
      change({ id: oid(4), parents: [oid(2)], timestamp: 10, actions: [] }),
      change({ id: oid(3), parents: [oid(2)], timestamp: 10, actions: [] }),
    ];
    expect(order(changes)).toEqual([2, 3, 4, 5]);
  });

  it('applies a whole sibling subtree before the next sibling and a merge after both parents', () => {
    const changes = [
      change({ id: oid(1), actions: [] }),
      change({ id: oid(2), parents: [oid(1)], actions: [] }),
      change({ id: oid(3), parents: [oid(2)], timestamp: 1, actions: [] }),
      change({ id: oid(6), parents: [oid(3)], timestamp: 9, actions: [] }),
      change({ id: oid(4), parents: [oid(2)], timestamp: 2, actions: [] }),
      change({ id: oid(7), parents: [oid(6), oid(4)], timestamp: 10, actions: [] }),
    ];
    expect(order(changes)).toEqual([2, 3, 6, 4, 7]);
  });

  it('keeps a change whose other parent failed to load reachable through its loaded parent', () => {
    const changes = [change({ id: oid(1), actions: [] }), change({ id: oid(2), parents: [oid(1), oid(99)], actions: [] })];
    expect(order(changes)).toEqual([2]);
  });

  it('walks a long linear history without exhausting the stack', () => {
    const changes = [change({ id: oid(1), actions: [] })];
    for (let i = 2; i <= 50_000; i++) changes.push(change({ id: oid(i), parents: [oid(i - 1)], actions: [] }));
    const result = order(changes);
    expect(result).toHaveLength(49_999);
    expect(result[49_998]).toBe(50_000);
  });
});
