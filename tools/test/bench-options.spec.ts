import path from 'node:path';
import { parseBenchOptions } from '../src/bench/options.js';

describe('bench options', () => {
  it('passes --memory-budget on to the servers it starts, and nothing without it', () => {
    expect(parseBenchOptions(['--scale', 'small', '--memory-budget', '48'], '/r').serverArgs).toEqual(['--memory-budget', '48']);
    expect(parseBenchOptions(['--scale', 'small', '--memory-budget=0'], '/r').serverArgs).toEqual(['--memory-budget', '0']);
    expect(parseBenchOptions(['--scale', 'small'], '/r').serverArgs).toEqual([]);
  });

  it.each(['-1', '1.5', 'lots', ''])('refuses the memory budget %j with the usage', (budget) => {
    expect(() => parseBenchOptions(['--memory-budget', budget], '/r')).toThrow(/--memory-budget must be a whole number\nusage:/);
  });

  it('takes real histories from repeated or comma-separated --history, resolved from the working directory', () => {
    const options = parseBenchOptions(['--history', 'a.git,/abs/b.git', '--history=c.git', '--settle', '30'], '/r');
    expect(options.histories).toEqual([path.resolve('a.git'), '/abs/b.git', path.resolve('c.git')]);
    expect(options.settleSeconds).toBe(30);
    expect(parseBenchOptions([], '/r')).toMatchObject({ histories: [], settleSeconds: 90 });
  });
});
