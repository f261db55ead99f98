import { resolveLogLevel } from './log-level.js';

describe('resolveLogLevel', () => {
  it.each([
    [undefined, {}, 'info'],
    [undefined, { FORGE_LOG_LEVEL: 'debug' }, 'debug'],
    [undefined, { FORGE_LOG_LEVEL: '' }, 'info'],
    ['warn', { FORGE_LOG_LEVEL: 'debug' }, 'warn'],
  ])('reads --log-level %s with environment %j as %s', (flag, env, expected) => {
    expect(resolveLogLevel(flag, env)).toBe(expected);
  });

  it('refuses an unknown level with a usage error', () => {
    expect(() => resolveLogLevel('loud', {})).toThrow(expect.objectContaining({ code: 'USAGE' }));
  });
});
