import { atomDate, escapeXml, renderAtomFeed } from './atom.mapper.js';

describe('Atom rendering', () => {
  it('escapes markup and leaves out characters XML 1.0 forbids', () => {
    expect(escapeXml(`<a href="x">'&'</a> ]]>`)).toBe('&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt; ]]&gt;');
    expect(escapeXml('a\u0000b\u0008c\u001fd\ud800e\uffffg\u{1f600}\t\n\r')).toBe('abcdeg\u{1f600}\t\n\r');
  });

  it('writes RFC 3339 times in UTC, clamped to years 1970 to 9999', () => {
    expect(atomDate(1_700_000_000)).toBe('2023-11-14T22:13:20Z');
    expect(atomDate(-5)).toBe('1970-01-01T00:00:00Z');
    expect(atomDate(1e300)).toBe('9999-12-31T23:59:59Z');
    expect(atomDate(Number.NaN)).toBe('1970-01-01T00:00:00Z');
  });

  it('dates an empty feed at the epoch, so its bytes do not change', () => {
    const feed = { id: 'rad:z1/feeds/issues', title: 't', self: '/s', author: 'a', entries: [] };
    expect(renderAtomFeed(feed)).toBe(renderAtomFeed(feed));
    expect(renderAtomFeed(feed)).toContain('<updated>1970-01-01T00:00:00Z</updated>');
  });
});
