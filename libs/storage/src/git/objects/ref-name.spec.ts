import { isValidAsciiRefName, isValidRefName } from './ref-name.js';

describe('isValidAsciiRefName', () => {
  it('says what isValidRefName says of names of printable ASCII, and no to the others', () => {
    const parts = [
      'refs',
      'heads',
      'namespaces',
      'z6Mk',
      'xyz.forge.issue',
      'a.b',
      '.hidden',
      'x.lock',
      'lock.x',
      'end.',
      '..',
      'a..b',
      '@',
      '@{1}',
      'a b',
      'a~1',
      'c:d',
      'q?',
      'st*r',
      '[x]',
      'back\\slash',
      '',
      'ü',
      'tab\t',
      '-',
      '_',
      '0f'.repeat(20),
    ];
    // Every name of up to four parts over the list, each with and without `refs/` first.
    const names: string[] = [];
    const grow = (prefix: string[], depth: number): void => {
      if (prefix.length > 0) names.push(prefix.join('/'), ['refs', ...prefix].join('/'), `refs/${prefix.join('/')}/`);
      if (depth === 0) return;
      for (const part of parts) grow([...prefix, part], depth - 1);
    };
    grow([], 3);
    names.push('HEAD', 'refs/', `refs/${'a'.repeat(1100)}`);
    const expected = (name: string): boolean => /^[\x20-\x7e]*$/.test(name) && isValidRefName(name);
    expect(names.filter((name) => isValidAsciiRefName(name) !== expected(name))).toEqual([]);
    expect(names.filter(expected).length).toBeGreaterThan(1000);
  });
});
