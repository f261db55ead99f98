/**
 * Atom 1.0 documents (RFC 4287), written as text: every text and attribute value escaped, and
 * the characters XML 1.0 does not allow anywhere (§2.2: controls other than tab, line feed and
 * carriage return, lone surrogates, U+FFFE and U+FFFF) left out, so a hostile title can neither
 * end an element nor make the document ill-formed.
 */

/** One `atom:entry`. Times are seconds since the epoch. */
export interface AtomEntry {
  /** A stable IRI: the same object always has the same id. */
  readonly id: string;
  readonly title: string;
  readonly updated: number;
  readonly author: { readonly name: string; readonly email?: string };
  /** The object's API URL (`link rel="alternate"`). */
  readonly link: string;
  /** Plain text, already cut to its bound; left out when empty. */
  readonly summary: string;
}

/** One `atom:feed`. */
export interface AtomFeed {
  readonly id: string;
  readonly title: string;
  /** The feed's own URL (`link rel="self"`). */
  readonly self: string;
  /** The feed's author when an entry names none (the repository). */
  readonly author: string;
  readonly entries: readonly AtomEntry[];
}

/** The media type of the answers (RFC 4287 §7). */
export const ATOM_CONTENT_TYPE = 'application/atom+xml; charset=utf-8';

// Everything outside XML 1.0's Char production (§2.2).
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text safe inside an element or a quoted attribute value. */
export function escapeXml(text: string): string {
  return text.replace(NOT_XML_CHAR, '').replace(/[&<>"']/g, (char) => ESCAPES[char] as string);
}

/** Latest second RFC 3339 can write (9999-12-31T23:59:59Z). */
const MAX_SECONDS = 253_402_300_799;

/** An RFC 3339 date-time in UTC; times outside years 1970–9999 are clamped into them. */
export function atomDate(seconds: number): string {
  const clamped = Number.isFinite(seconds) ? Math.min(Math.max(Math.trunc(seconds), 0), MAX_SECONDS) : 0;
  return new Date(clamped * 1000).toISOString().replace('.000Z', 'Z');
}

function textElement(name: string, text: string): string {
  return `<${name}>${escapeXml(text)}</${name}>`;
}

function renderEntry(entry: AtomEntry): string {
  const email = entry.author.email === undefined || entry.author.email === '' ? '' : textElement('email', entry.author.email);
  return [
    '<entry>',
    textElement('id', entry.id),
    `<title type="text">${escapeXml(entry.title)}</title>`,
    textElement('updated', atomDate(entry.updated)),
    `<author>${textElement('name', entry.author.name)}${email}</author>`,
    `<link rel="alternate" type="application/json" href="${escapeXml(entry.link)}"/>`,
    entry.summary === '' ? '' : `<summary type="text">${escapeXml(entry.summary)}</summary>`,
    '</entry>',
  ].join('');
}

/**
 * The feed document. Its `updated` is the newest entry's (the epoch for an empty feed), so the
 * same entries always give the same bytes and the same ETag.
 */
export function renderAtomFeed(feed: AtomFeed): string {
  const updated = feed.entries.reduce((newest, entry) => Math.max(newest, entry.updated), 0);
  return [
    '<?xml version="1.0" encoding="utf-8"?>\n',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    textElement('id', feed.id),
    `<title type="text">${escapeXml(feed.title)}</title>`,
    textElement('updated', atomDate(updated)),
    `<link rel="self" type="application/atom+xml" href="${escapeXml(feed.self)}"/>`,
    `<author>${textElement('name', feed.author)}</author>`,
    ...feed.entries.map(renderEntry),
    '</feed>\n',
  ].join('');
}
