import { rawContentType } from './raw-content-type.js';

const TEXT = Buffer.from('hello\n');
const BINARY = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]);

describe('rawContentType', () => {
  it.each([
    ['a.png', BINARY, 'image/png'],
    ['a.md', TEXT, 'text/markdown; charset=utf-8'],
    ['a.json', TEXT, 'application/json; charset=utf-8'],
    ['a.ts', TEXT, 'text/plain; charset=utf-8'],
    ['a.rs', TEXT, 'text/plain; charset=utf-8'],
    ['README', TEXT, 'text/plain; charset=utf-8'],
    ['data', BINARY, 'application/octet-stream'],
    [null, BINARY, 'application/octet-stream'],
    [null, TEXT, 'text/plain; charset=utf-8'],
    ['latin1.txt', Buffer.from('caf\xe9\n', 'latin1'), 'text/plain'],
  ])('types %s as %s', (name, bytes, type) => {
    expect(rawContentType(name, bytes)).toBe(type);
  });
});
