/**
 * A strict reader of the XML 1.0 that the Atom feeds are: a declaration, elements with quoted
 * attributes, character data and the five predefined entities or character references. It
 * refuses what a conforming parser refuses in that subset (unbalanced or crossed tags, a raw
 * `<` or `&`, `]]>` in text, characters outside XML's `Char`, duplicate attributes, anything after
 * the root), so a feed it reads is well-formed. No DTDs, comments, CDATA or processing
 * instructions: the feeds have none, and meeting one is an error here.
 */

/** An element: its name, attributes, child elements and its own text (entities resolved). */
export interface XmlElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: XmlElement[];
  text: string;
}

const NAME = /^[A-Za-z_][A-Za-z0-9._:-]*/;
const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

function decode(raw: string, where: string): string {
  if (raw.includes('<')) throw new Error(`raw < in ${where}`);
  return raw.replace(/&([^;]*);|&/g, (match, name: string | undefined) => {
    if (name === undefined) throw new Error(`raw & in ${where}`);
    if (name in ENTITIES) return ENTITIES[name] as string;
    const code = /^#x([0-9A-Fa-f]+)$/.exec(name) ? parseInt(name.slice(2), 16) : /^#([0-9]+)$/.exec(name) ? parseInt(name.slice(1), 10) : NaN;
    const char = Number.isNaN(code) ? '' : String.fromCodePoint(code);
    if (char === '' || NOT_XML_CHAR.test(char)) throw new Error(`bad reference ${match} in ${where}`);
    return char;
  });
}

function parseAttributes(source: string, element: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  let rest = source.trim();
  while (rest !== '') {
    const match = /^([A-Za-z_][A-Za-z0-9._:-]*)\s*=\s*("([^"]*)"|'([^']*)')\s*/.exec(rest);
    if (match === null) throw new Error(`malformed attributes of <${element}>: ${rest}`);
    const name = match[1] as string;
    if (name in attributes) throw new Error(`duplicate attribute ${name} of <${element}>`);
    attributes[name] = decode(match[3] ?? match[4] ?? '', `attribute ${name}`);
    rest = rest.slice(match[0].length);
  }
  return attributes;
}

/**
 * Parses a document; throws naming the first well-formedness error.
 * @returns the root element
 */
export function parseXml(document: string): XmlElement {
  if (NOT_XML_CHAR.test(document)) throw new Error('a character XML does not allow');
  const declaration = /^<\?xml version="1\.0" encoding="utf-8"\?>\s*/.exec(document);
  if (declaration === null) throw new Error('no XML declaration');
  let at = declaration[0].length;
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  while (at < document.length) {
    const open = document.indexOf('<', at);
    const text = document.slice(at, open < 0 ? undefined : open);
    if (text.includes(']]>')) throw new Error(']]> in character data');
    const parent = stack[stack.length - 1];
    if (parent === undefined) {
      if (text.trim() !== '') throw new Error('text outside the root element');
    } else parent.text += decode(text, `<${parent.name}>`);
    if (open < 0) break;
    const close = document.indexOf('>', open);
    if (close < 0) throw new Error('unterminated tag');
    const tag = document.slice(open + 1, close);
    at = close + 1;
    if (tag.startsWith('/')) {
      const name = tag.slice(1).trim();
      if (stack.pop()?.name !== name) throw new Error(`unbalanced </${name}>`);
      continue;
    }
    const name = NAME.exec(tag)?.[0];
    if (name === undefined) throw new Error(`not an element: <${tag}>`);
    if (root !== null && stack.length === 0) throw new Error('a second root element');
    const selfClosing = tag.endsWith('/');
    const element: XmlElement = { name, attributes: parseAttributes(tag.slice(name.length, selfClosing ? -1 : undefined), name), children: [], text: '' };
    if (parent === undefined) root = element;
    else parent.children.push(element);
    if (!selfClosing) stack.push(element);
  }
  if (root === null || stack.length > 0) throw new Error('unclosed elements');
  return root;
}
