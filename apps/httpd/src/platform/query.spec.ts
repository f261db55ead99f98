import { parseQuery } from './query.js';

const schema = {
  page: 'uint',
  perPage: 'uint',
  since: 'int',
  show: ['all', 'pinned'],
  parent: 'oid',
  q: 'string',
} as const;

describe('parseQuery', () => {
  it('parses every known kind and leaves absent keys undefined', () => {
    const query = parseQuery({ page: '2', perPage: '0', since: '-5', show: 'all', parent: 'A'.repeat(40), q: 'x y' }, schema);
    expect(query).toEqual({ page: 2, perPage: 0, since: -5, show: 'all', parent: 'a'.repeat(40), q: 'x y' });
    expect(parseQuery({}, schema)).toEqual({});
  });

  it('ignores unknown keys, including prototype names', () => {
    expect(parseQuery({ foo: ['1', '2'], __proto__: 'x', constructor: 'y' }, schema)).toEqual({});
  });

  it('accepts page and perPage up to 2^53-1', () => {
    expect(parseQuery({ page: '9007199254740991' }, schema)).toEqual({ page: 9007199254740991 });
  });

  it.each([
    ['perPage', '', 'Invalid perPage: expected a non-negative integer'],
    ['perPage', '-1', 'Invalid perPage: expected a non-negative integer'],
    ['perPage', '+1', 'Invalid perPage: expected a non-negative integer'],
    ['perPage', '1.0', 'Invalid perPage: expected a non-negative integer'],
    ['perPage', '1e3', 'Invalid perPage: expected a non-negative integer'],
    ['perPage', ' 1', 'Invalid perPage: expected a non-negative integer'],
    ['page', '9007199254740992', 'Invalid page: expected a non-negative integer'],
    ['page', '１', 'Invalid page: expected a non-negative integer'],
    ['since', '', 'Invalid since: expected an integer'],
    ['since', '--1', 'Invalid since: expected an integer'],
    ['since', '9223372036854775808', 'Invalid since: expected a 64-bit integer'],
    ['since', '-9223372036854775809', 'Invalid since: expected a 64-bit integer'],
    ['show', 'All', 'Invalid show: expected all or pinned'],
    ['show', '', 'Invalid show: expected all or pinned'],
    ['parent', 'abc', 'Invalid parent: expected 40 hexadecimal characters'],
  ])('rejects %s=%j with a message naming the key', (key, value, message) => {
    expect(() => parseQuery({ [key]: value }, schema)).toThrow(message);
  });

  it('accepts the i64 bounds for since', () => {
    expect(parseQuery({ since: '-9223372036854775808' }, schema).since).toBe(-(2 ** 63));
    expect(parseQuery({ since: '9223372036854775807' }, schema).since).toBe(2 ** 63);
  });

  it('rejects a repeated known key', () => {
    expect(() => parseQuery({ page: ['1', '2'] }, schema)).toThrow('Invalid page: given more than once');
  });

  it('throws errors the filter maps to 400', () => {
    expect(() => parseQuery({ page: 'x' }, schema)).toThrow(expect.objectContaining({ code: 'invalid-input' }));
  });
});
