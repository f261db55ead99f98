// No dead exports. A value (function, class, constant) a module exports is imported by another
// file of the repository, code or test, directly or through a package entry point; one only its
// own module uses is not exported, one nobody uses is gone. A type may stay exported while its
// own module uses it (it names a parameter or result of what the module exports), but not when
// nothing uses it at all. Entry points (package.json `exports`) are the packages' deliberate
// surface: a value there whose code nothing in the repository uses must be listed below with
// the reason it is offered to library users. The examples of the packages' READMEs (run by
// tools/test/scale/packed-libraries.spec.ts) count as users.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { entryPoints, packageDirs, root, type SourceFile, workspaceSources } from './workspace-sources.js';

const ONE_WRITER_PER_ACTION =
  'the COB write side has one writer per issue and patch action a node writes, so a builder can write any history; the rest of the set is used by the builder and the tests';

/** Entry-point values whose code nothing in the repository uses, kept for library users. */
const UNUSED_PUBLIC_API: Record<string, string> = {
  '@forge-httpd/cob/write#editIssueTitle': ONE_WRITER_PER_ACTION,
  '@forge-httpd/cob/write#reactReviewComment': ONE_WRITER_PER_ACTION,
  '@forge-httpd/cob/write#redactReview': ONE_WRITER_PER_ACTION,
  '@forge-httpd/cob/write#redactRevision': ONE_WRITER_PER_ACTION,
};

/** `[specifier, name]` of each import in the `js` code blocks of the packages' READMEs. */
function readmeImports(): [string, string][] {
  return packageDirs.flatMap((dir) => {
    let text: string;
    try {
      text = readFileSync(join(root, dir, 'README.md'), 'utf8');
    } catch {
      return [];
    }
    const blocks = [...text.matchAll(/```js\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
    return blocks.flatMap((block) =>
      [...block.matchAll(/import \{([^}]*)\} from '([^']+)'/g)].flatMap((match) =>
        (match[1] ?? '')
          .split(',')
          .map((name) => name.trim().split(' as ')[0]?.trim() ?? '')
          .filter(Boolean)
          .map((name): [string, string] => [match[2] ?? '', name]),
      ),
    );
  });
}

interface Graph {
  readonly files: ReadonlyMap<string, SourceFile>;
  /** `file#name` taken by an import from another file (through any re-export). */
  readonly used: ReadonlySet<string>;
}

/** Where `file`'s export `name` is declared: the file itself, or the end of its re-exports. */
function declaration(files: ReadonlyMap<string, SourceFile>, path: string, name: string): { path: string; name: string } | null {
  const file = files.get(path);
  if (file === undefined) return null;
  if (file.exports.includes(name)) return { path, name };
  for (const edge of file.imports) {
    if (!edge.reexport || edge.target === null) continue;
    for (const item of edge.names) {
      if (item === '*') {
        const found = declaration(files, edge.target, name);
        if (found !== null) return found;
        continue;
      }
      const [local = '', exported = ''] = item.split('→');
      if (exported === name) return declaration(files, edge.target, local);
    }
  }
  return null;
}

function graph(): Graph {
  const files = new Map(workspaceSources().map((file) => [file.path, file]));
  const used = new Set<string>();
  const use = (path: string, name: string): void => {
    if (name === '*') {
      const file = files.get(path);
      used.add(`${path}#*`);
      for (const edge of file?.imports ?? []) if (edge.reexport && edge.target !== null) use(edge.target, '*');
      return;
    }
    const found = declaration(files, path, name);
    if (found !== null) used.add(`${found.path}#${found.name}`);
  };
  for (const file of files.values()) {
    for (const edge of file.imports) {
      if (edge.reexport || edge.target === null || edge.target === file.path) continue;
      for (const name of edge.names) use(edge.target, name);
    }
  }
  for (const [specifier, name] of readmeImports()) {
    const entry = entryPoints.get(specifier);
    if (entry !== undefined) use(entry, name);
  }
  return { files, used };
}

const isImported = (g: Graph, path: string, name: string): boolean => g.used.has(`${path}#${name}`) || g.used.has(`${path}#*`);
const usedAtHome = (file: SourceFile, name: string): boolean => (file.identifiers.get(name) ?? 0) > 1;

/** `file#name` → the declarations entry points offer. */
function publicDeclarations(g: Graph): Map<string, string> {
  const found = new Map<string, string>();
  for (const [specifier, path] of entryPoints) {
    const file = g.files.get(path);
    for (const edge of file?.imports ?? []) {
      if (!edge.reexport) continue;
      for (const item of edge.names) {
        const name = item.split('→').pop() ?? item;
        const at = declaration(g.files, path, name);
        if (at !== null) found.set(`${at.path}#${at.name}`, `${specifier}#${name}`);
      }
    }
    for (const name of file?.exports ?? []) found.set(`${path}#${name}`, `${specifier}#${name}`);
  }
  return found;
}

/** Problems with module exports: `file#name (what to do)`. */
function deadExports(g: Graph): string[] {
  const offered = publicDeclarations(g);
  return [...g.files.values()].flatMap((file) =>
    file.exports
      .filter((name) => !isImported(g, file.path, name) && !offered.has(`${file.path}#${name}`))
      .filter((name) => !(file.typeExports.has(name) && usedAtHome(file, name)))
      .map((name) => `${file.path}#${name} (${usedAtHome(file, name) ? 'used only at home: not exported' : 'unused: remove'})`),
  );
}

/** Entry-point values whose code is used nowhere in the repository (types are always kept). */
function unusedPublicValues(g: Graph): string[] {
  return [...publicDeclarations(g)]
    .filter(([key]) => {
      const [path = '', name = ''] = key.split('#');
      const file = g.files.get(path);
      return file !== undefined && !file.typeExports.has(name) && !isImported(g, path, name) && !usedAtHome(file, name);
    })
    .map(([, specifier]) => specifier)
    .sort();
}

describe('exports', () => {
  const g = graph();

  it('every exported value is imported by another file, and every exported type is used', () => {
    expect(deadExports(g)).toEqual([]);
  });

  it('every value of an entry point is used in the repository, or listed as kept for library users', () => {
    expect(unusedPublicValues(g).filter((name) => UNUSED_PUBLIC_API[name] === undefined)).toEqual([]);
  });

  it('lists only public values that are still offered and still unused', () => {
    const unused = new Set(unusedPublicValues(g));
    expect(Object.keys(UNUSED_PUBLIC_API).filter((name) => !unused.has(name))).toEqual([]);
  });
});
