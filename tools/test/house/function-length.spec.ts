// No function of the sources is longer than 80 lines (ARCHITECTURE.md "Start-up", STYLE:
// one job per function): a longer one is several steps that deserve names. Measured with the
// TypeScript compiler on every function-like node with a body, from its first line to its last.
import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import ts from 'typescript';

const root = join(import.meta.dirname ?? __dirname, '..', '..', '..');

const MAX_LINES = 80;

/** Functions still over the bound, as `path:name`: none. */
const allowed: readonly string[] = [];

function sourceRoots(): string[] {
  const under = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(dir, entry.name, 'src'));
  return [...under('apps'), ...under('libs'), 'tools/src'];
}

function sourceFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' });
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts') && !name.endsWith('.spec.ts') && !name.endsWith('.testing.ts'))
    .filter((name) => !name.split(sep).some((part) => part === 'test' || part === 'node_modules'))
    .map((name) => join(dir, name));
}

/** What a reader would call the function: its own name, or the name it is given. */
function functionName(node: ts.FunctionLikeDeclaration): string {
  if (node.name !== undefined) return node.name.getText();
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name !== undefined)
    return parent.name.getText();
  return '<anonymous>';
}

interface LongFunction {
  readonly file: string;
  readonly line: number;
  readonly name: string;
  readonly lines: number;
}

function longFunctions(file: string): LongFunction[] {
  const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > MAX_LINES) found.push({ file, line: first + 1, name: functionName(node), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

it(`keeps every function of the sources within ${MAX_LINES} lines`, () => {
  const files = sourceRoots().flatMap(sourceFiles);
  expect(files.length).toBeGreaterThan(100);
  const offending = files
    .flatMap(longFunctions)
    .filter((found) => !allowed.includes(`${found.file}:${found.name}`))
    .map((found) => `${found.file}:${found.line} ${found.name} (${found.lines} lines)`);
  expect(offending).toEqual([]);
  // Parsing every source file takes a while on a busy machine.
}, 120_000);
