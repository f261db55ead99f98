import { formatLogLine } from './tty-log-format.js';

describe('formatLogLine', () => {
  it('renders time, level, context, message and the other fields', () => {
    const line = JSON.stringify({ level: 40, time: Date.UTC(2026, 0, 2, 3, 4, 5, 6), context: 'cob', msg: 'dropped', rid: 'rad:z1', reason: 'unknown action' });
    expect(formatLogLine(line)).toBe('03:04:05.006 WARN  [cob] dropped rid=rad:z1 reason="unknown action"\n');
  });

  it('quotes values that could fake another field or line', () => {
    const line = JSON.stringify({ level: 30, time: 0, msg: 'request', path: '/a b\nlevel=50' });
    expect(formatLogLine(line)).toBe('00:00:00.000 INFO  request path="/a b\\nlevel=50"\n');
  });

  it('returns text that is not JSON unchanged', () => {
    expect(formatLogLine('plain\n')).toBe('plain\n');
  });
});
