import { canonicalJson } from '@forge-httpd/identity';

describe('canonicalJson', () => {
  it('writes no whitespace and keeps array order', () => {
    expect(canonicalJson({ b: [3, 1, 2], a: { d: true, c: null } })).toBe('{"a":{"c":null,"d":true},"b":[3,1,2]}');
  });

  it('sorts a key before its prefix when the next character is below the quote (quirk)', () => {
    expect(canonicalJson({ a: 1, 'a!': 2, 'a#': 3, ab: 4 })).toBe('{"a!":2,"a":1,"a#":3,"ab":4}');
  });

  it('sorts keys by UTF-8 bytes, not UTF-16 code units', () => {
    // U+FF61 is below U+1F600 in UTF-8 bytes but above its surrogates in UTF-16.
    expect(canonicalJson({ '\u{1F600}': 1, '\uFF61': 2 })).toBe('{"\uFF61":2,"\u{1F600}":1}');
  });

  it('sorts escaped keys by their escaped form', () => {
    expect(canonicalJson({ 'a\n': 1, 'a\\': 2, a: 3 })).toBe('{"a":3,"a\\\\":2,"a\\n":1}');
  });

  it('escapes quotes, backslashes and control characters minimally', () => {
    const text = 'q" b\\ \b\t\n\f\r \u0000\u001f / \u007f é 🎉';
    expect(canonicalJson(text)).toBe('"q\\" b\\\\ \\b\\t\\n\\f\\r \\u0000\\u001f / \u007f é 🎉"');
  });

  it('normalises strings and keys to NFC', () => {
    expect(canonicalJson({ 'e\u0301': 'e\u0301' })).toBe('{"\u00e9":"\u00e9"}');
  });

  it('omits properties whose value is undefined', () => {
    expect(canonicalJson({ description: undefined, title: 't' })).toBe('{"title":"t"}');
  });

  it('writes integers including negatives and zero', () => {
    expect(canonicalJson([0, -0, -12, 9007199254740991])).toBe('[0,0,-12,9007199254740991]');
  });

  it.each([
    ['a float', 1.5],
    ['NaN', Number.NaN],
    ['infinity', Number.POSITIVE_INFINITY],
    ['an unsafe integer', 2 ** 60],
    ['a lone surrogate', '\ud800'],
    ['undefined in an array', [undefined]],
    ['a Date', new Date(0)],
    ['a function', () => 1],
  ])('refuses %s', (_label, value) => {
    expect(() => canonicalJson(value)).toThrow(TypeError);
  });
});
