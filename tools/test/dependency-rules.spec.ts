// The one-way package graph of ARCHITECTURE.md, checked on the sources: a library may import
// only the workspace packages below it, and no library imports an HTTP framework.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const root = join(import.meta.dirname ?? __dirname, '..', '..');

const allowedWorkspaceImports: Record<string, readonly string[]> = {
  'libs/bounded-cache': [],
  'libs/identity': ['bounded-cache'],
  'libs/storage': ['bounded-cache', 'identity'],
  'libs/cob': ['bounded-cache', 'identity', 'storage'],
  'libs/diff': [],
  'libs/api-types': [],
  // Not diff: the diff library's tests write scratch repositories with the builder.
  'libs/builder': ['bounded-cache', 'identity', 'storage', 'cob'],
};

const frameworkPackages = /^(@nestjs\/|fastify|@fastify\/|class-validator)/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.spec.ts') && !name.endsWith('.testing.ts'))
    .map((name) => join(dir, name));
}

function importedSpecifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((match) => match[1] ?? '');
}

describe.each(Object.entries(allowedWorkspaceImports))('%s', (lib, allowed) => {
  const files = sourceFiles(join(root, lib, 'src'));

  it('imports only the workspace packages below it', () => {
    const offending = files.flatMap((file) =>
      importedSpecifiers(file)
        .filter((spec) => spec.startsWith('@forge-httpd/'))
        // `@forge-httpd/storage/write` is the storage package too.
        .filter((spec) => !allowed.includes(spec.slice('@forge-httpd/'.length).split('/')[0] ?? ''))
        .map((spec) => `${relative(root, file)} → ${spec}`),
    );
    expect(offending).toEqual([]);
  });

  it('imports no HTTP framework, and nothing outside itself by relative path', () => {
    const src = join(root, lib, 'src');
    const offending = files.flatMap((file) =>
      importedSpecifiers(file)
        .filter((spec) => frameworkPackages.test(spec) || (spec.startsWith('.') && isOutside(src, file, spec)))
        .map((spec) => `${relative(root, file)} → ${spec}`),
    );
    expect(offending).toEqual([]);
  });
});

function isOutside(src: string, file: string, spec: string): boolean {
  return relative(src, join(dirname(file), spec)).startsWith('..');
}

// api-types is the wire contract: it imports no workspace package and no runtime library
// except its schema library, valibot (chosen on measured bundle size and validation speed,
// README design notes), which is ESM, dependency-free and runs in browsers. Anything else here
// would ship to every frontend that imports the client.
const apiTypesAllowedPackages = ['valibot'];

it('keeps api-types free of any import but its schema library', () => {
  const files = sourceFiles(join(root, 'libs/api-types/src'));
  const offending = files.flatMap((file) =>
    importedSpecifiers(file)
      .filter((spec) => !spec.startsWith('./') && !apiTypesAllowedPackages.includes(spec))
      .map((spec) => `${relative(root, file)} → ${spec}`),
  );
  expect(offending).toEqual([]);
});
