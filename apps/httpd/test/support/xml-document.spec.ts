import { parseXml } from './xml-document.js';

const DECLARATION = '<?xml version="1.0" encoding="utf-8"?>\n';

describe('the strict XML reader the feed specs rely on', () => {
  it('reads elements, attributes and references', () => {
    const root = parseXml(`${DECLARATION}<feed xmlns="x"><title a='1'>a &amp; b &lt;c&gt; &#x41;&#66;</title><link href="h?x=1&amp;y=2"/></feed>`);
    expect(root.children.map((element) => [element.name, element.text, element.attributes])).toEqual([
      ['title', 'a & b <c> AB', { a: '1' }],
      ['link', '', { href: 'h?x=1&y=2' }],
    ]);
  });

  it.each([
    ['a raw ampersand', '<a>x & y</a>'],
    ['a raw less-than in an attribute', '<a b="<"/>'],
    ['a CDATA end in text', '<a>]]></a>'],
    ['a control character', '<a>\u0001</a>'],
    ['a reference to a control character', '<a>&#1;</a>'],
    ['an unknown entity', '<a>&nbsp;</a>'],
    ['crossed tags', '<a><b></a></b>'],
    ['an unclosed element', '<a><b></b>'],
    ['two roots', '<a/><b/>'],
    ['a duplicate attribute', '<a b="1" b="2"/>'],
    ['text after the root', '<a/>x'],
  ])('refuses %s', (_, body) => {
    expect(() => parseXml(`${DECLARATION}${body}`)).toThrow();
  });
});
