import { routePatternToRegExp } from './http-hooks.js';

describe('routePatternToRegExp', () => {
  it.each([
    ['/api/v1/repos/:rid', '/api/v1/repos/rad:z123', true],
    ['/api/v1/repos/:rid', '/api/v1/repos/', false],
    ['/api/v1/repos/:rid', '/api/v1/repos/a/b', false],
    ['/api/v1/repos/:rid/tree/:sha/*', '/api/v1/repos/r/tree/s/', true],
    ['/api/v1/repos/:rid/tree/:sha/*', '/api/v1/repos/r/tree/s/a/b', true],
    ['/api/v1/repos/:rid/tree/:sha/*', '/api/v1/repos/r/tree/s', false],
    ['/api/v1', '/api/v1', true],
    ['/api/v1', '/api/v1x', false],
    ['/', '/', true],
  ])('%s matching %s is %s', (pattern, path, expected) => {
    expect(routePatternToRegExp(pattern).test(path)).toBe(expected);
  });
});
