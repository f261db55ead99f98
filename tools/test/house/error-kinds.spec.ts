// Errors come from one table (ARCHITECTURE.md "Errors"): a dozen kinds of error at most, each
// with a `code` that the app's table maps to a status; no status chosen by a class name or by a
// suffix of a code.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname ?? __dirname, '..', '..', '..');
const MAX_ERROR_CLASSES = 12;

/** The product's sources: every library's and the server's, without tests and test helpers. */
function productFiles(): string[] {
  const dirs = [...readdirSync(join(root, 'libs')).map((lib) => join(root, 'libs', lib, 'src')), join(root, 'apps', 'httpd', 'src')];
  return dirs.flatMap((dir) =>
    readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.spec.ts') && !name.endsWith('.testing.ts') && !name.endsWith('.d.ts'))
      .map((name) => join(dir, name)),
  );
}

/** Declared classes as `name@file → [name, base]`: two modules' classes of one name are two classes. */
function declaredClasses(): Map<string, [string, string]> {
  const classes = new Map<string, [string, string]>();
  for (const file of productFiles()) {
    for (const match of readFileSync(file, 'utf8').matchAll(/\bclass\s+(\w+)(?:<[^>]*>)?\s+extends\s+([\w.]+)/g)) {
      classes.set(`${match[1] ?? ''} (${relative(root, file)})`, [match[1] ?? '', match[2] ?? '']);
    }
  }
  return classes;
}

/** Classes that are errors: extending a built-in error class or, in turn, one of these. */
function errorClasses(): string[] {
  const classes = declaredClasses();
  const declaredNames = new Set([...classes.values()].map(([name]) => name));
  const errors = new Set<string>();
  const errorNames = new Set<string>();
  for (let grew = true; grew;) {
    grew = false;
    for (const [key, [name, base]] of classes) {
      const builtIn = /^(Error|[A-Z]\w*Error)$/.test(base) && !declaredNames.has(base);
      if (errors.has(key) || !(builtIn || errorNames.has(base))) continue;
      errors.add(key);
      errorNames.add(name);
      grew = true;
    }
  }
  return [...errors].sort();
}

describe('error kinds', () => {
  it(`declares at most ${MAX_ERROR_CLASSES} error classes in libs/*/src and apps/httpd/src`, () => {
    const found = errorClasses();
    expect(found.length).toBeGreaterThan(0);
    if (found.length > MAX_ERROR_CLASSES) throw new Error(`${found.length} error classes:\n${found.join('\n')}`);
  });

  it.each(['error.filter.ts', 'error-response.ts', 'error-table.ts'])('chooses no status by a name or a code suffix in platform/%s', (name) => {
    const text = readFileSync(join(root, 'apps', 'httpd', 'src', 'platform', name), 'utf8');
    expect(text).not.toMatch(/constructor\.name|\.name\s*(===|!==|\.endsWith|\.startsWith|\.includes)/);
    expect(text).not.toMatch(/code\??\.(endsWith|startsWith|includes)\(/);
  });
});
