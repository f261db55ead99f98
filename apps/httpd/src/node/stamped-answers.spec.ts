import { StampedAnswers } from './stamped-answers.js';

/** A read that counts its calls and answers `items` numbers. */
function counting(items: number): { calls: () => number; read: () => number[] } {
  let calls = 0;
  return {
    calls: () => calls,
    read: () => {
      calls += 1;
      return Array.from({ length: items }, (_, at) => at + calls);
    },
  };
}

describe('StampedAnswers', () => {
  it('reads a list once per stamp and key', () => {
    const answers = new StampedAnswers<number>({ lists: 4, items: 100 });
    const list = counting(3);
    const first = answers.get('s1', 'a', list.read);
    expect(answers.get('s1', 'a', list.read)).toBe(first);
    expect(list.calls()).toBe(1);
    const other = counting(2);
    answers.get('s1', 'b', other.read);
    answers.get('s1', 'b', other.read);
    expect(other.calls()).toBe(1);
    // A new stamp: every list is read again.
    expect(answers.get('s2', 'a', list.read)).not.toBe(first);
    expect(list.calls()).toBe(2);
    answers.get('s2', 'b', other.read);
    expect(other.calls()).toBe(2);
  });

  it('reads a list over its item bound every time, and keeps at most its number of lists', () => {
    const answers = new StampedAnswers<number>({ lists: 2, items: 10 });
    const big = counting(11);
    answers.get('s', 'big', big.read);
    answers.get('s', 'big', big.read);
    expect(big.calls()).toBe(2);
    const lists = ['a', 'b', 'c'].map((key) => ({ key, list: counting(1) }));
    for (const { key, list } of lists) answers.get('s', key, list.read);
    // 'a' was the least recently used of three: dropped.
    for (const { key, list } of lists) answers.get('s', key, list.read);
    expect(lists.map(({ list }) => list.calls())).toEqual([2, 2, 2]);
  });
});
