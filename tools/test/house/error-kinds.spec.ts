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

/** Declared classes as `name → [base, where]`. */
function declaredClasses(): Map<string, [string, string]> {
  const classes = new Map<string, [string, string]>();
  for (const file of productFiles()) {
    for (const match of readFileSync(file, 'utf8').matchAll(/\bclass\s+(\w+)(?:<[^>]*>)?\s+extends\s+([\w.]+)/g)) {
      classes.set(match[1] ?? '', [match[2] ?? '', relative(root, file)]);
    }
  }
  return classes;
}

/** Classes that are errors: extending a built-in error class or, in turn, one of these. */
function errorClasses(): string[] {
  const classes = declaredClasses();
  const errors = new Set<string>();
  for (let grew = true; grew;) {
    grew = false;
    for (const [name, [base]] of classes) {
      if (errors.has(name) || !(/^(Error|[A-Z]\w*Error)$/.test(base) && (!classes.has(base) || errors.has(base)))) continue;
      errors.add(name);
      grew = true;
    }
  }
  return [...errors].map((name) => `${name} (${classes.get(name)?.[1]})`).sort();
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
