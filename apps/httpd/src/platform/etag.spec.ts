import { createHash } from 'node:crypto';
import { computeEtag, etagForCoding, ifNoneMatchMatches } from './etag.js';

const sha1 = (body: Buffer): string => `"${createHash('sha1').update(body).digest('base64url')}"`;

describe('computeEtag', () => {
  it('is the quoted SHA-1 of the body, inline for small bodies', () => {
    const body = Buffer.from('{"a":1}');
    expect(computeEtag(body)).toBe(sha1(body));
  });

  it('hashes large bodies off the event loop to the same value', async () => {
    const body = Buffer.alloc(3 * 1024 * 1024, 'x');
    const etag = computeEtag(body);
    expect(typeof etag).not.toBe('string');
    expect(await etag).toBe(sha1(body));
  });
});

describe('etagForCoding', () => {
  it('suffixes the opaque tag with the coding', () => {
    expect([etagForCoding('"abc"', null), etagForCoding('"abc"', 'br'), etagForCoding('"abc"', 'gzip')]).toEqual(['"abc"', '"abc-br"', '"abc-gzip"']);
  });
});

describe('ifNoneMatchMatches', () => {
  it.each([
    ['"abc"', true],
    ['W/"abc"', true],
    ['"abc-br"', true],
    ['"abc-gzip"', true],
    ['"x", "abc"', true],
    ['*', true],
    ['"ab"', false],
    ['"abc-deflate"', false],
    ['abc', false],
    ['', false],
  ])('%p against "abc" is %p', (header, expected) => {
    expect(ifNoneMatchMatches(header, '"abc"')).toBe(expected);
  });
});
