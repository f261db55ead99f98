import type { Prng } from './prng.js';

// Plain ASCII only: fast-import `data <n>` counts bytes, and ASCII keeps length === byte length.
const WORDS = [
  'alpha',
  'buffer',
  'cache',
  'delta',
  'event',
  'frame',
  'graph',
  'handle',
  'index',
  'join',
  'kernel',
  'layer',
  'merge',
  'node',
  'object',
  'parse',
  'queue',
  'route',
  'store',
  'token',
  'update',
  'value',
  'walk',
  'xref',
  'yield',
  'zone',
  'batch',
  'chunk',
  'digest',
  'entry',
];
const AREAS = ['core', 'net', 'storage', 'cli', 'web', 'crypto', 'cob', 'git', 'node', 'tools'];
const VERBS = ['fix', 'add', 'refactor', 'improve', 'remove', 'document', 'test', 'speed up'];

/** A text file as lines (without newlines); edits copy the array so branches can share them. */
export type Lines = readonly string[];

/** A fresh path under `src/`, `docs/` or `tests/` that is not in `taken`. */
export function newFilePath(prng: Prng, taken: { has(key: string): boolean }): string {
  for (;;) {
    const area = prng.pick(AREAS);
    const kind = prng.next();
    const name = `${prng.pick(WORDS)}_${prng.pick(WORDS)}${prng.int(0, 99)}`;
    const candidate = kind < 0.8 ? `src/${area}/${prng.pick(WORDS)}/${name}.ts` : kind < 0.92 ? `tests/${area}/${name}.test.ts` : `docs/${area}/${name}.md`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** Source-looking content of 15–90 lines. */
export function newFileLines(prng: Prng, filePath: string): Lines {
  const lines = [`// ${filePath}`, `import { ${prng.pick(WORDS)} } from './${prng.pick(WORDS)}.js';`, ''];
  const functions = prng.int(2, 8);
  for (let f = 0; f < functions; f++) lines.push(...functionLines(prng));
  return lines;
}

function functionLines(prng: Prng): string[] {
  const name = `${prng.pick(WORDS)}${capital(prng.pick(WORDS))}`;
  const body = [`export function ${name}(input: number): number {`];
  const statements = prng.int(2, 8);
  for (let s = 0; s < statements; s++) body.push(statementLine(prng));
  body.push('  return input;', '}', '');
  return body;
}

function statementLine(prng: Prng): string {
  const a = prng.pick(WORDS);
  return `  const ${a}${prng.int(0, 999)} = input * ${prng.int(1, 97)} + ${prng.pick(WORDS).length}; // ${prng.pick(WORDS)}`;
}

function capital(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** A small edit (1–4 line replacements, insertions or deletions), like a typical commit. */
export function editLines(prng: Prng, lines: Lines): Lines {
  const next = lines.slice();
  const operations = prng.int(1, 4);
  for (let o = 0; o < operations; o++) {
    const at = prng.int(3, Math.max(3, next.length - 1));
    const kind = prng.next();
    if (kind < 0.5 || next.length < 8) next.splice(at, 0, ...Array.from({ length: prng.int(1, 6) }, () => statementLine(prng)));
    else if (kind < 0.8) next[at] = statementLine(prng);
    else next.splice(at, 1);
  }
  return next;
}

/** Joins lines into file bytes with a final newline. */
export function renderLines(lines: Lines): string {
  return `${lines.join('\n')}\n`;
}

/** README text, growing with the commit index so readme responses change over history. */
export function readmeText(commitIndex: number): string {
  const sections = 3 + Math.floor(commitIndex / 5000);
  const parts = ['# bench-project', '', 'A generated repository for forge-httpd benchmarks.', ''];
  for (let s = 0; s < sections; s++) parts.push(`## Section ${s}`, '', `Text of section ${s}, revision ${commitIndex}.`, '');
  return parts.join('\n');
}

/** Deterministic binary bytes with a PNG signature (binary detection must say binary). */
export function binaryBytes(prng: Prng, size: number): Buffer {
  const bytes = Buffer.alloc(size);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes);
  for (let i = 8; i < size; i++) bytes[i] = Math.floor(prng.next() * 256);
  return bytes;
}

/** A commit message: a summary line and, for some commits, a body paragraph. */
export function commitMessage(prng: Prng, filePath: string): string {
  const area = filePath.split('/')[1] ?? 'core';
  const summary = `${area}: ${prng.pick(VERBS)} ${prng.pick(WORDS)} ${prng.pick(WORDS)}`;
  if (!prng.chance(0.4)) return `${summary}\n`;
  return `${summary}\n\nThe ${prng.pick(WORDS)} path now handles ${prng.pick(WORDS)} entries\nwithout a second ${prng.pick(WORDS)} pass.\n`;
}
