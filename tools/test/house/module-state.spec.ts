// Libraries keep no module-level mutable state: the process-wide machinery (git processes,
// limits, budgets, shared caches, read buffers) lives in one StorageRuntime that its user creates
// and passes down (ARCHITECTURE.md, "Runtime state"). Checked on the sources: a module-level
// `let`, a module-level `const x = new …` that is not typed read-only, and a module-level
// `const x = {…}`/`[…]` holder with a lower-case name are state. The few that must stay
// process-wide are listed here by file and name, each with a comment at its declaration.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname ?? __dirname, '..', '..', '..');

/** The documented exceptions, by `file:name`; at most three. */
const EXCEPTIONS: readonly string[] = [
  'libs/storage/src/git/processes/git-process-counts.ts:counts',
  'libs/identity/src/key-pair.ts:verifyingKeys',
  'libs/cob/src/store/cob-kinds.ts:refIndexes',
];

const LIBS = ['bounded-cache', 'identity', 'storage', 'cob', 'diff', 'api-types'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.spec.ts') && !name.endsWith('.testing.ts'))
    .map((name) => join(dir, name));
}

/** The names of a file's module-level state, by the rules in this file's opening comment. */
function moduleState(text: string): string[] {
  const names: string[] = [];
  for (const line of text.split('\n')) {
    const declared = /^(?:export )?(let|var|const) ([A-Za-z_$][\w$]*)(?:: ([^=]+))? = (.*)$/.exec(line);
    if (declared === null) continue;
    const [, keyword, name = '', type = '', value = ''] = declared;
    const readOnlyType = /^\s*Readonly/.test(type);
    const constantName = /^[A-Z][A-Z0-9_]*$/.test(name);
    if (keyword !== 'const') names.push(name);
    else if (value.startsWith('new ') && !readOnlyType) names.push(name);
    else if (/^[{[]/.test(value) && !constantName && !readOnlyType && !/ as const;?$/.test(value)) names.push(name);
  }
  return names;
}

describe('module-level state in the libraries', () => {
  const found = LIBS.flatMap((lib) =>
    sourceFiles(join(root, 'libs', lib, 'src')).flatMap((file) => moduleState(readFileSync(file, 'utf8')).map((name) => `${relative(root, file)}:${name}`)),
  );

  it('is only the documented exceptions', () => {
    expect(found.filter((entry) => !EXCEPTIONS.includes(entry))).toEqual([]);
  });

  it('keeps every documented exception, commented where it is declared', () => {
    expect(EXCEPTIONS.length).toBeLessThanOrEqual(3);
    for (const entry of EXCEPTIONS) {
      expect(found).toContain(entry);
      const [file = '', name = ''] = entry.split(':');
      const lines = readFileSync(join(root, file), 'utf8').split('\n');
      const at = lines.findIndex((line) => new RegExp(`^(?:export )?(?:let|const) ${name}\\b`).test(line));
      expect({ entry, comment: lines.slice(Math.max(0, at - 4), at).join('\n') }).toEqual({
        entry,
        comment: expect.stringContaining('Process-wide on purpose'),
      });
    }
  });

  it('finds what it is meant to find', () => {
    expect(moduleState('let helper = null;\nconst cache = new Map<string, number>();\nconst counts = { a: 0 };')).toEqual(['helper', 'cache', 'counts']);
    expect(
      moduleState("const MODES: ReadonlySet<string> = new Set(['a']);\nconst LIMIT = 4;\nconst PAGE = { page: 'uint' } as const;\n  let inner = 0;"),
    ).toEqual([]);
  });
});
