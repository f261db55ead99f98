// The workspace's TypeScript sources as the house checks see them: each file with its package,
// its imports (resolved to files where they point into the workspace) and its exports, read
// with the TypeScript parser (no type checking, so it takes a second or two).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export const root = resolve(import.meta.dirname, '..', '..', '..');

/** The workspace packages (directories with a package.json under libs/, apps/, and tools/). */
export const packageDirs: readonly string[] = [
  ...['libs', 'apps'].flatMap((group) =>
    readdirSync(join(root, group))
      .filter((name) => existsSync(join(root, group, name, 'package.json')))
      .map((name) => `${group}/${name}`),
  ),
  'tools',
].sort();

/** The package entry points, by import specifier (package.json `exports`, pointed at sources). */
export const entryPoints: ReadonlyMap<string, string> = new Map(
  packageDirs.flatMap((dir) => {
    const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as { name: string; exports?: Record<string, { default: string }> };
    return Object.entries(manifest.exports ?? {}).map(([subpath, target]): [string, string] => {
      const source = target.default.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts');
      return [subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`, `${dir}/${source}`];
    });
  }),
);

/** One import or re-export of a file. */
export interface ImportEdge {
  readonly specifier: string;
  /** The workspace file it resolves to (root-relative), or null for a package outside the workspace. */
  readonly target: string | null;
  /** Names taken (for `export … from`, the names re-exported, as `local→exported`); `*` for all of them. */
  readonly names: readonly string[];
  readonly typeOnly: boolean;
  readonly reexport: boolean;
}

/** One source file. */
export interface SourceFile {
  /** Root-relative path. */
  readonly path: string;
  /** Its package directory (e.g. `libs/storage`). */
  readonly pkg: string;
  readonly imports: readonly ImportEdge[];
  /** Names it declares with `export` (not re-exports). */
  readonly exports: readonly string[];
  /** Those of its exports that are types (interfaces and type aliases). */
  readonly typeExports: ReadonlySet<string>;
  /** How often each identifier occurs in the file, leaving out `export { … }` lists. */
  readonly identifiers: ReadonlyMap<string, number>;
}

function listTs(dir: string): string[] {
  if (!existsSync(join(root, dir))) return [];
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts') && !/(^|\/)(node_modules|dist)\//.test(name))
    .map((name) => `${dir}/${name}`);
}

/** A relative or workspace-package specifier, resolved to a root-relative source file. */
function resolveSpecifier(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return entryPoints.get(specifier) ?? null;
  const base = relative(root, resolve(root, dirname(from), specifier));
  for (const candidate of [base.replace(/\.js$/, '.ts'), `${base}.ts`, `${base}/index.ts`]) if (existsSync(join(root, candidate))) return candidate;
  return base;
}

function hasExportModifier(node: ts.Node): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
}

function parse(path: string): SourceFile {
  const text = readFileSync(join(root, path), 'utf8');
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const imports: ImportEdge[] = [];
  const exports: string[] = [];
  const typeExports = new Set<string>();
  const identifiers = new Map<string, number>();
  const edge = (specifier: string, names: string[], typeOnly: boolean, reexport: boolean): void => {
    imports.push({ specifier, target: resolveSpecifier(path, specifier), names, typeOnly, reexport });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) identifiers.set(node.text, (identifiers.get(node.text) ?? 0) + 1);
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const names: string[] = [];
      if (clause?.name) names.push('default');
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) names.push('*');
      if (bindings && ts.isNamedImports(bindings)) for (const element of bindings.elements) names.push((element.propertyName ?? element.name).text);
      const typeOnly =
        clause?.isTypeOnly === true ||
        (bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly));
      edge(node.moduleSpecifier.text, names, typeOnly, false);
    } else if (ts.isExportDeclaration(node)) {
      if (node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
        const clause = node.exportClause;
        const names =
          clause === undefined ? ['*'] : ts.isNamedExports(clause) ? clause.elements.map((e) => `${(e.propertyName ?? e.name).text}→${e.name.text}`) : ['*'];
        edge(node.moduleSpecifier.text, names, node.isTypeOnly, true);
      } else if (node.exportClause && ts.isNamedExports(node.exportClause)) {
        for (const element of node.exportClause.elements) {
          exports.push(element.name.text);
          if (node.isTypeOnly || element.isTypeOnly) typeExports.add(element.name.text);
          for (const name of element.propertyName ? [element.propertyName, element.name] : [element.name]) {
            if (ts.isIdentifier(name)) identifiers.set(name.text, (identifiers.get(name.text) ?? 0) - 1);
          }
        }
      }
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteral(argument)) edge(argument.text, dynamicImportNames(node), false, false);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      edge(node.moduleReference.expression.text, ['*'], node.isTypeOnly, false);
    } else if (node.parent === source && hasExportModifier(node)) {
      if (ts.isVariableStatement(node)) {
        for (const declaration of node.declarationList.declarations) if (ts.isIdentifier(declaration.name)) exports.push(declaration.name.text);
      } else if (
        (ts.isFunctionDeclaration(node) ||
          ts.isClassDeclaration(node) ||
          ts.isInterfaceDeclaration(node) ||
          ts.isTypeAliasDeclaration(node) ||
          ts.isEnumDeclaration(node)) &&
        node.name
      ) {
        exports.push(node.name.text);
        if (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) typeExports.add(node.name.text);
      }
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      edge(node.argument.literal.text, [node.qualifier && ts.isIdentifier(node.qualifier) ? node.qualifier.text : '*'], true, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { path, pkg: packageDirs.find((dir) => path.startsWith(`${dir}/`)) ?? '', imports, exports: [...new Set(exports)], typeExports, identifiers };
}

/** `const { a, b } = await import('x')` takes a and b; any other dynamic import takes everything. */
function dynamicImportNames(call: ts.CallExpression): string[] {
  let node: ts.Node = call.parent;
  if (ts.isAwaitExpression(node)) node = node.parent;
  if (ts.isVariableDeclaration(node) && ts.isObjectBindingPattern(node.name)) {
    return node.name.elements.map((element) => (element.propertyName ?? element.name).getText());
  }
  return ['*'];
}

let cached: readonly SourceFile[] | undefined;

/** Every TypeScript file of every package (src, tests and anything else in it), parsed once per test file. */
export function workspaceSources(): readonly SourceFile[] {
  cached ??= packageDirs
    .filter((dir) => dir !== 'tools')
    .flatMap((dir) => listTs(dir))
    .concat(['src', 'test'].flatMap((sub) => listTs(`tools/${sub}`)))
    .sort()
    .map(parse);
  return cached;
}
