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
});
