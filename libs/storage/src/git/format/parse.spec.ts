import { InvalidDataError } from '@forge-httpd/identity';
import { BatchResponseParser, type BatchAnswer } from '../processes/batch-response-parser.js';
import { hashObject } from '../objects/hash-object.js';
import { isOid, parseOid } from '../objects/oid.js';
import { seededRandom } from '../history/history-index.testing.js';
import { parseObjectHeaders } from '../objects/object-headers.js';
import { headerOid, parseCommit } from './parse-commit.js';
import { parseTag } from './parse-tag.js';
import { parseTree } from './parse-tree.js';
import { isValidRefName, isValidRefPrefix } from '../objects/ref-name.js';
import { Semaphore } from '../limits/semaphore.js';
import { serializeCommit } from './serialize-commit.js';
import { serializeTree } from './serialize-tree.js';
import { formatSignature, parseSignature } from './signature.js';
import type { Oid } from '../objects/oid.js';

const TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904' as Oid;
const alice = { name: 'Alice Liddell', email: 'alice@example.com', time: 1_700_000_000, offset: '-0130' };

describe('parseOid', () => {
  it('lower-cases a 40-hex id in any case', () => {
    expect(parseOid('ABCDEF0123456789ABCDEF0123456789ABCDEF01')).toBe('abcdef0123456789abcdef0123456789abcdef01');
  });

  it.each(['', 'abc', 'g'.repeat(40), 'a'.repeat(41), ' '.repeat(40), `${'a'.repeat(39)}\n`])('rejects %j with a client-safe message', (text) => {
    expect(() => parseOid(text, 'sha')).toThrow('Invalid sha: expected 40 hexadecimal characters');
    expect(isOid(text)).toBe(false);
  });
});

describe('signatures', () => {
  it('round-trips through format and parse', () => {
    expect(parseSignature(formatSignature(alice))).toEqual(alice);
  });

  it('parses leniently like libgit2 when the time is missing or the email has angle brackets', () => {
    expect(parseSignature('Eve <eve@x>')).toEqual({ name: 'Eve', email: 'eve@x', time: 0, offset: '+0000' });
    expect(parseSignature('A <b> <c@d> 5 +0100')).toEqual({ name: 'A <b>', email: 'c@d', time: 5, offset: '+0100' });
    expect(parseSignature('no email')).toEqual({ name: 'no email', email: '', time: 0, offset: '+0000' });
  });
});

describe('parseSignature on what git writes and on everything else', () => {
  // The general reading (trim, split on whitespace runs), which the path for git's own
  // ` <seconds> <±hhmm>` must agree with.
  const general = (text: string): { time: number; offset: string } => {
    const close = text.lastIndexOf('>');
    const [timeText, offsetText] = text
      .slice(close + 1)
      .trim()
      .split(/\s+/);
    return {
      time: timeText !== undefined && /^-?[0-9]+$/.test(timeText) ? Number(timeText) : 0,
      offset: offsetText !== undefined && /^[+-][0-9]{4}$/.test(offsetText) ? offsetText : '+0000',
    };
  };

  it('reads every tail of random pieces like the general reading', () => {
    const next = seededRandom(7);
    const pieces = [' ', '  ', '\t', '-', '+', '0', '17', '1700000000', '+0100', '-0530', '+01000', 'x', '\u00a0', '>'];
    let timed = 0;
    for (let round = 0; round < 20_000; round++) {
      // One round in four starts from what git writes, half of those left as they are.
      const written = round % 4 === 0;
      let tail = written ? ` ${Math.floor(next() * 2e9)} ${next() < 0.5 ? '+' : '-'}${String(Math.floor(next() * 1e4)).padStart(4, '0')}` : '';
      for (let count = written && next() < 0.5 ? 0 : Math.floor(next() * 6); count > 0; count--) tail += pieces[Math.floor(next() * pieces.length)];
      const text = `Ann <ann@x>${tail}`;
      const parsed = parseSignature(text);
      expect({ tail, time: parsed.time, offset: parsed.offset }).toEqual({ tail, ...general(text) });
      if (parsed.time !== 0 && parsed.offset !== '+0000') timed += 1;
    }
    expect(timed).toBeGreaterThan(200);
  });
});

describe('parseObjectHeaders', () => {
  // The format read as text, line by line: what the byte reader must agree with.
  const byLines = (data: Buffer): { headers: Array<{ name: string; value: string }>; message: string } => {
    const blank = data.indexOf('\n\n');
    const end = blank >= 0 ? blank : data.length > 0 && data[data.length - 1] === 0x0a ? data.length - 1 : data.length;
    const headers: Array<{ name: string; value: string }> = [];
    for (const line of data.subarray(0, end).toString('latin1').split('\n')) {
      const last = headers[headers.length - 1];
      if (line.startsWith(' ') && last !== undefined) last.value += `\n${line.slice(1)}`;
      else if (line.indexOf(' ') <= 0) throw new Error('malformed');
      else headers.push({ name: line.slice(0, line.indexOf(' ')), value: line.slice(line.indexOf(' ') + 1) });
    }
    return { headers, message: data.subarray(blank >= 0 ? blank + 2 : data.length).toString('latin1') };
  };
  const read = (data: Buffer): ReturnType<typeof byLines> => {
    const parsed = parseObjectHeaders(data);
    return {
      headers: parsed.headers.map(({ name, value }) => ({ name, value: value.toString('latin1') })),
      message: parsed.message.toString('latin1'),
    };
  };

  it('splits random header blocks like the line-by-line reading, and refuses the same ones', () => {
    const next = seededRandom(11);
    const pieces = ['tree', 'parent', 'author', 'gpgsig', 'x-y', ' ', '  ', '\n', '\n ', '\n\n', 'a b', '\u00e9', '\u00ff', '\0', '\r'];
    const outcomes = { read: 0, continued: 0, refused: 0 };
    for (let round = 0; round < 20_000; round++) {
      let text = '';
      for (let count = Math.floor(next() * 10); count > 0; count--) text += pieces[Math.floor(next() * pieces.length)];
      const data = Buffer.from(text, 'latin1');
      let expected: ReturnType<typeof byLines> | 'refused';
      try {
        expected = byLines(data);
      } catch {
        expected = 'refused';
      }
      let actual: ReturnType<typeof byLines> | 'refused';
      try {
        actual = read(data);
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidDataError);
        actual = 'refused';
      }
      expect({ text, actual }).toEqual({ text, actual: expected });
      if (actual === 'refused') outcomes.refused += 1;
      else if (actual.headers.some(({ value }) => value.includes('\n'))) outcomes.continued += 1;
      else outcomes.read += 1;
    }
    // Each kind of block came up often enough to mean something.
    for (const count of Object.values(outcomes)) expect(count).toBeGreaterThan(500);
  });

  it('joins continuation lines, an empty one included', () => {
    const data = Buffer.from('tree a\ngpgsig one\n two\n \n three\nx-custom q\n\nmsg');
    expect(read(data)).toEqual({
      headers: [
        { name: 'tree', value: 'a' },
        { name: 'gpgsig', value: 'one\ntwo\n\nthree' },
        { name: 'x-custom', value: 'q' },
      ],
      message: 'msg',
    });
  });
});

describe('headerOid', () => {
  it.each([TREE.toUpperCase(), TREE.slice(1), `${TREE}0`, `${TREE.slice(0, 39)}g`, `${TREE.slice(0, 20)}\n${TREE.slice(20)}`])('refuses %j', (text) => {
    expect(() => headerOid(Buffer.from(text, 'latin1'))).toThrow(InvalidDataError);
  });

  it('reads 40 lower-case hex digits', () => {
    expect(headerOid(Buffer.from(TREE))).toBe(TREE);
  });
});

describe('parseCommit', () => {
  it('reads back what serializeCommit writes, headers and message included', () => {
    const headers = [
      { name: 'gpgsig', value: 'line 1\nline 2\n\nline 4' },
      { name: 'encoding', value: 'UTF-8' },
    ];
    const parents = ['1'.repeat(40), '2'.repeat(40)] as Oid[];
    const bytes = serializeCommit({ tree: TREE, parents, author: alice, committer: alice, headers, message: 'Subject\n\nBody' });
    const commit = parseCommit(hashObject('commit', bytes), bytes);
    expect(commit).toMatchObject({ tree: TREE, parents, author: alice, committer: alice, headers, message: 'Subject\n\nBody', isUtf8: true });
  });

  it('handles a commit without a message', () => {
    const bytes = Buffer.from(`tree ${TREE}\nauthor A <a> 1 +0000\ncommitter A <a> 1 +0000\n`);
    expect(parseCommit(TREE, bytes)).toMatchObject({ message: '', parents: [] });
  });

  it('flags a non-UTF-8 author name', () => {
    const bytes = Buffer.from(`tree ${TREE}\nauthor Andr\xe9 <a> 1 +0000\ncommitter A <a> 1 +0000\n\nok\n`, 'latin1');
    expect(parseCommit(TREE, bytes).isUtf8).toBe(false);
  });

  it.each([
    ['a missing tree', `author A <a> 1 +0000\ncommitter A <a> 1 +0000\n\nm`],
    ['a malformed parent', `tree ${TREE}\nparent xyz\nauthor A <a> 1 +0000\ncommitter A <a> 1 +0000\n\nm`],
    ['a header line without value', `tree ${TREE}\nbogus\n\nm`],
  ])('rejects a commit with %s', (_label, text) => {
    expect(() => parseCommit(TREE, Buffer.from(text))).toThrow(expect.objectContaining({ code: 'invalid-data' }));
  });
});

describe('parseTag', () => {
  it('parses a tag without tagger', () => {
    const text = `object ${TREE}\ntype tree\ntag t\n\nmsg\n`;
    expect(parseTag(TREE, Buffer.from(text))).toMatchObject({ object: TREE, type: 'tree', tag: 't', tagger: null, message: 'msg\n' });
  });
});

describe('parseTree', () => {
  it('reads back what serializeTree writes, including non-ASCII names', () => {
    const entries = [
      { name: 'é.txt', mode: '100644' as const, oid: '1'.repeat(40) as Oid },
      { name: 'sub', mode: '40000' as const, oid: '2'.repeat(40) as Oid },
    ];
    expect(parseTree(serializeTree(entries))).toEqual([
      { ...entries[1], kind: 'tree' },
      { ...entries[0], kind: 'blob' },
    ]);
  });

  it('rejects a truncated entry', () => {
    const bytes = serializeTree([{ name: 'a', mode: '100644', oid: '1'.repeat(40) as Oid }]);
    expect(() => parseTree(bytes.subarray(0, bytes.length - 1))).toThrow(expect.objectContaining({ code: 'invalid-data' }));
  });
});

describe('ref names', () => {
  it.each(['HEAD', 'refs/heads/main', 'refs/namespaces/z6Mk/refs/cobs/xyz.radicle.issue/abc', 'refs/heads/a-b_c+d@e/ü'])('accepts %j', (name) =>
    expect(isValidRefName(name)).toBe(true),
  );

  it('accepts prefixes ending with a slash only', () => {
    expect(isValidRefPrefix('refs/')).toBe(true);
    expect(isValidRefPrefix('refs/heads/')).toBe(true);
    expect(isValidRefPrefix('refs/heads')).toBe(false);
    expect(isValidRefPrefix('refs/heads//')).toBe(false);
  });
});

describe('BatchResponseParser', () => {
  const oid = 'a'.repeat(40);
  const stream = Buffer.concat([
    Buffer.from(`${oid} blob 3\nx\ny\n`),
    Buffer.from(`${oid} missing\n`),
    Buffer.from(`${oid} tree 99\n`),
    Buffer.from(`${oid} blob 0\n\n`),
  ]);
  const wants = [true, true, false, true];

  it.each([1, 2, 7, 1000])('parses answers fed in chunks of %i bytes', (size) => {
    const answers: BatchAnswer[] = [];
    let index = 0;
    const parser = new BatchResponseParser(
      () => wants[index] ?? false,
      (answer) => {
        answers.push(answer);
        index += 1;
      },
    );
    for (let offset = 0; offset < stream.length; offset += size) parser.push(stream.subarray(offset, offset + size));
    expect(answers.map((a) => (a.found ? [a.type, a.size, a.data?.toString()] : null))).toEqual([
      ['blob', 3, 'x\ny'],
      null,
      ['tree', 99, undefined],
      ['blob', 0, ''],
    ]);
  });

  it('throws on output it does not understand', () => {
    const parser = new BatchResponseParser(
      () => false,
      () => undefined,
    );
    expect(() => parser.push(Buffer.from('fatal: oops\n'))).toThrow();
  });

  it('throws when content is shorter than announced instead of answering with the wrong bytes', () => {
    const answers: BatchAnswer[] = [];
    const parser = new BatchResponseParser(
      () => true,
      (answer) => answers.push(answer),
    );
    expect(() => parser.push(Buffer.from(`${oid} blob 10\nabc\n${oid} blob 4\nbbb\n\n`))).toThrow();
    expect(answers).toEqual([]);
  });
});

describe('Semaphore', () => {
  it('never runs more tasks than its limit', async () => {
    const semaphore = new Semaphore(3);
    let running = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 20 }, () =>
        semaphore.run(async () => {
          running += 1;
          peak = Math.max(peak, running);
          // Hold the slot across a turn of the event loop, so the other tasks queue behind it.
          await new Promise((resolve) => setImmediate(resolve));
          running -= 1;
        }),
      ),
    );
    expect(peak).toBe(3);
    expect(semaphore.pending).toBe(0);
  });
});
