// A class does one thing: one with more than MAX_PUBLIC_METHODS public methods is several
// classes under one name (ARCHITECTURE.md). Counted with the TypeScript parser on the sources
// of the libraries and the app; specs and test helpers are left out.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const root = join(import.meta.dirname, '..', '..', '..');
const MAX_PUBLIC_METHODS = 20;

function sourceDirs(): string[] {
  const libs = readdirSync(join(root, 'libs'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(root, 'libs', entry.name, 'src'));
  return [...libs, join(root, 'apps/httpd/src')];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.spec.ts') && !name.endsWith('.testing.ts') && !name.endsWith('.d.ts'))
    .map((name) => join(dir, name));
}

function isPublicMethod(member: ts.ClassElement): boolean {
  const isMethod = ts.isMethodDeclaration(member) || ts.isGetAccessorDeclaration(member) || ts.isSetAccessorDeclaration(member);
  if (!isMethod || member.name === undefined || ts.isPrivateIdentifier(member.name)) return false;
  const hidden = [ts.SyntaxKind.PrivateKeyword, ts.SyntaxKind.ProtectedKeyword];
  return !(ts.getModifiers(member) ?? []).some((modifier) => hidden.includes(modifier.kind));
}

/** Every class in `text` with its number of public methods (a get/set pair counts twice). */
function classSizes(fileName: string, text: string): Array<{ name: string; publicMethods: number }> {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const sizes: Array<{ name: string; publicMethods: number }> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) {
      sizes.push({ name: `${fileName} ${node.name?.text ?? '(anonymous class)'}`, publicMethods: node.members.filter(isPublicMethod).length });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return sizes;
}

const classes = sourceDirs()
  .flatMap(sourceFiles)
  .flatMap((file) => classSizes(relative(root, file), readFileSync(file, 'utf8')));

it('counts public methods and accessors, not hidden members, fields or the constructor', () => {
  const text = `class Sample {
    field = 1;
    constructor(private readonly a: number) {}
    read(): number { return this.a; }
    static open(): Sample { return new Sample(1); }
    get size(): number { return 1; }
    set size(value: number) {}
    private hidden(): void {}
    protected inherited(): void {}
    #own(): void {}
  }`;
  expect(classSizes('sample.ts', text)).toEqual([{ name: 'sample.ts Sample', publicMethods: 4 }]);
});

it('finds the classes it counts', () => {
  expect(classes.length).toBeGreaterThan(50);
});

it(`keeps every class at ${MAX_PUBLIC_METHODS} public methods or fewer`, () => {
  const oversized = classes.filter((entry) => entry.publicMethods > MAX_PUBLIC_METHODS).map((entry) => `${entry.name}: ${entry.publicMethods}`);
  expect(oversized).toEqual([]);
});
