import { commitDescription, commitSummary } from './commit.mapper.js';

describe('commitSummary and commitDescription', () => {
  it.each([
    ['Subject\n\nBody text\n', 'Subject', 'Body text'],
    ['Subject', 'Subject', ''],
    ['', '', ''],
    ['\n\n\nSubject after newlines\n', 'Subject after newlines', ''],
    ['Line one\nline two\n\nBody\n', 'Line one line two', 'Line one\nline two\n\nBody'],
    ['Trailing spaces  \n\n  Body  \n', 'Trailing spaces', 'Body'],
    ['Tabs\tand  spaces kept\n', 'Tabs\tand  spaces kept', ''],
    ['a \n b\n', 'a b', 'a \n b'],
    ['CRLF\r\n\r\nbody\r\n', 'CRLF body', 'CRLF\r\n\r\nbody'],
    ['Summary\n\n\u0085\u3000Body\u2003\n', 'Summary', 'Body'],
    ['Summary\n\n\ufeffBody', 'Summary', '\ufeffBody'],
  ])('splits %j into %j and %j', (message, summary, description) => {
    expect(commitSummary(message)).toBe(summary);
    expect(commitDescription(message, commitSummary(message))).toBe(description);
  });

  it('gives random messages the summary of the rule read literally (one-line paragraphs and the rest)', () => {
    // libgit2's rule as written: the first paragraph, whitespace runs that hold a newline
    // made one space, the trailing run dropped.
    const byRule = (message: string): string => {
      const text = message.replace(/^\n+/, '');
      const end = text.search(/\n(\n|$)/);
      const paragraph = end < 0 ? text : text.slice(0, end);
      return paragraph.replace(/[ \t\n\f\r\v]+/g, (run) => (run.includes('\n') ? ' ' : run)).replace(/[ \t\n\f\r\v]+$/, '');
    };
    let state = 7;
    const next = (): number => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pieces = ['a', 'Fix it', ' ', '\t', '\n', '\n\n', '\r', '\f', '\v', '\u0085', 'é', '😀'];
    const paragraphs = { oneLine: 0, longer: 0 };
    for (let round = 0; round < 20_000; round++) {
      let message = '';
      for (let count = Math.floor(next() * 8); count > 0; count--) message += pieces[Math.floor(next() * pieces.length)];
      expect({ message, summary: commitSummary(message) }).toEqual({ message, summary: byRule(message) });
      const text = message.replace(/^\n+/, '');
      const lineEnd = text.indexOf('\n');
      if (lineEnd < 0 || lineEnd + 1 === text.length || text[lineEnd + 1] === '\n') paragraphs.oneLine += 1;
      else paragraphs.longer += 1;
    }
    expect(paragraphs.oneLine).toBeGreaterThan(1000);
    expect(paragraphs.longer).toBeGreaterThan(1000);
  });
});
