import { parseGitPatch } from '@forge-httpd/diff';
import { toDiff } from './diff.mapper.js';

const OLD = '1'.repeat(40);
const NEW = '2'.repeat(40);

/** git's output for one modified file whose hunk carries `section` as its function context. */
function modifiedFile(section: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`:100644 100644 ${OLD} ${NEW} M\0f.c\0\0diff --git a/f.c b/f.c\nindex ${OLD}..${NEW} 100644\n--- a/f.c\n+++ b/f.c\n@@ -3 +3 @@`),
    section,
    Buffer.from('\n-a\n+b\n'),
  ]);
}

describe('toDiff', () => {
  it.each([
    ['a UTF-8 header as git wrote it', Buffer.from(' int main(void)'), '@@ -3 +3 @@ int main(void)\n'],
    ['a header that is not UTF-8 decoded with U+FFFD, never null', Buffer.from(' caf\xe9()', 'latin1'), '@@ -3 +3 @@ caf\ufffd()\n'],
  ])('writes %s', (_, section, header) => {
    const [file] = toDiff(parseGitPatch(modifiedFile(section)), 'typeFirst').files;
    expect(file !== undefined && 'diff' in file && file.diff.type === 'plain' && file.diff.hunks[0]?.header).toBe(header);
  });
});
