// The same commit-detail schema (diff, hunks, lines, files map) in each candidate library:
// validation time of a 12 MiB body of 100,000 diff lines, browser bundle size of the
// validator alone, JSON Schema size. `npm install && node run.js` in this directory.
import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
const libs = ['zod', 'zodmini', 'typebox034', 'typebox034-value', 'typebox1', 'valibot'];
function body() {
  const files = [];
  const blob = { id: 'a'.repeat(40), binary: false, content: 'x' };
  let n = 0;
  for (let f = 0; f < 100; f++) {
    const hunks = [];
    for (let h = 0; h < 20; h++) {
      const lines = [];
      for (let i = 0; i < 50; i++, n++) {
        const k = i % 3;
        const text = `    const value${i} = compute(${n}, "some text of a typical source line");\n`;
        lines.push(
          k === 0
            ? { type: 'addition', line: text, lineNo: i + 1 }
            : k === 1
              ? { type: 'deletion', line: text, lineNo: i + 1 }
              : { type: 'context', line: text, lineNoOld: i, lineNoNew: i + 1 },
        );
      }
      hunks.push({
        header: `@@ -${h * 50},50 +${h * 50},50 @@ fn f()\n`,
        lines,
        old: { start: h * 50, end: h * 50 + 50 },
        new: { start: h * 50, end: h * 50 + 50 },
      });
    }
    files.push({
      status: 'modified',
      path: `src/file-${f}.ts`,
      diff: { type: 'plain', hunks, stats: { additions: 333, deletions: 333 }, eof: 'noneMissing' },
      old: { oid: 'b'.repeat(40), mode: 'blob' },
      new: { oid: 'c'.repeat(40), mode: 'blob' },
    });
  }
  const person = { name: 'Alice', email: 'alice@example.org' };
  return {
    commit: { id: 'd'.repeat(40), author: person, summary: 's', description: '', parents: ['e'.repeat(40)], committer: { ...person, time: 1700000000 } },
    diff: { files, stats: { filesChanged: 100, insertions: 33300, deletions: 33300 } },
    files: { ['a'.repeat(40)]: blob },
    branches: ['refs/heads/main'],
  };
}
const text = JSON.stringify(body());
console.log('body MiB', (text.length / 1048576).toFixed(2));
const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const parseTimes = [];
for (let i = 0; i < 7; i++) {
  const t = performance.now();
  JSON.parse(text);
  parseTimes.push(performance.now() - t);
}
console.log('JSON.parse ms', median(parseTimes).toFixed(1));
for (const lib of libs) {
  const m = await import(`./src/${lib}.js`);
  const value = JSON.parse(text);
  const times = [];
  let ok;
  for (let i = 0; i < 7; i++) {
    const t = performance.now();
    ok = m.check(value);
    times.push(performance.now() - t);
  }
  const bad = JSON.parse(text);
  bad.diff.files[99].diff.hunks[19].lines[49].lineNo = 'x';
  const out = await build({
    stdin: { contents: `import { check } from './src/${lib}.js'; globalThis.check = check;`, resolveDir: '.' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
  });
  const code = out.outputFiles[0].contents;
  const js = JSON.stringify(m.jsonSchema());
  console.log(
    `${lib}: valid=${ok} rejectsBad=${!m.check(bad)} median ${median(times).toFixed(1)} ms (first ${times[0].toFixed(1)}), bundle ${(code.length / 1024).toFixed(1)} KB, gz ${(gzipSync(code).length / 1024).toFixed(1)} KB, jsonSchema ${js.length} chars`,
  );
}
