// No unused dependencies: every package a package.json names (dependencies, devDependencies) is
// imported or required by a file of that package (the root's scope is the whole repository), or
// run by a script (one of its binaries, or its path under node_modules), or named by a config
// (a jest transform, a tsconfig `types` entry for an @types package), or a required peer of one
// of the package's other dependencies (NestJS needs rxjs and reflect-metadata).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageDirs, root } from './workspace-sources.js';

interface Manifest {
  readonly name?: string;
  readonly bin?: string | Record<string, string>;
  readonly scripts?: Record<string, string>;
  readonly dependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;
const CODE = /\.(ts|js|cjs|mjs)$/;
/** Not part of any workspace: the schema-library benchmark installs its own dependencies. */
const OWN_INSTALL = 'tools/bench/schema-libraries';

function filesUnder(dir: string, pattern: RegExp): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .map((name) => (dir === '.' ? name : `${dir}/${name}`))
    .filter((path) => pattern.test(path) && !/(^|\/)(node_modules|dist|\.nx|\.git)\//.test(path) && !path.startsWith(`${OWN_INSTALL}/`));
}

/** Every quoted string of the code and config files under `dir` (module specifiers among them). */
function quotedStrings(dir: string): Set<string> {
  const strings = new Set<string>();
  for (const path of filesUnder(dir, CODE)) {
    for (const match of readFileSync(join(root, path), 'utf8').matchAll(/['"]([@\w][\w@./-]*)['"]/g)) strings.add(match[1] ?? '');
  }
  return strings;
}

/** The commands of every npm script and Nx target. */
function commands(): string {
  const scripts = ['package.json', ...packageDirs.map((dir) => `${dir}/package.json`)].flatMap((path) =>
    Object.values(readJson<Manifest>(join(root, path)).scripts ?? {}),
  );
  const targets = packageDirs.filter((dir) => existsSync(join(root, dir, 'project.json'))).map((dir) => readFileSync(join(root, dir, 'project.json'), 'utf8'));
  return [...scripts, ...targets].join('\n');
}

/** The `types` entries of every tsconfig. */
function tsconfigTypes(): Set<string> {
  const types = new Set<string>();
  for (const path of filesUnder('.', /(^|\/)tsconfig[\w.]*\.json$/)) {
    for (const match of readFileSync(join(root, path), 'utf8').matchAll(/"types"\s*:\s*\[([^\]]*)\]/g)) {
      for (const name of (match[1] ?? '').matchAll(/"([^"]+)"/g)) types.add(name[1] ?? '');
    }
  }
  return types;
}

function installed(name: string): Manifest {
  const path = join(root, 'node_modules', name, 'package.json');
  return existsSync(path) ? readJson<Manifest>(path) : {};
}

function binaries(name: string): string[] {
  const { bin } = installed(name);
  if (bin === undefined) return [];
  return typeof bin === 'string' ? [name.split('/').pop() ?? name] : Object.keys(bin);
}

/** `package.json → dependency` for each dependency nothing uses. */
function unusedDependencies(): string[] {
  const run = commands();
  const types = tsconfigTypes();
  return ['.', ...packageDirs].flatMap((dir) => {
    const manifest = readJson<Manifest>(join(root, dir, 'package.json'));
    const declared = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });
    const strings = quotedStrings(dir);
    const imported = (name: string): boolean => strings.has(name) || [...strings].some((text) => text.startsWith(`${name}/`));
    const typed = (name: string): boolean => name.startsWith('@types/') && (types.has(name.slice(7)) || imported(name.slice(7)));
    const runs = (name: string): boolean =>
      run.includes(`node_modules/${name}/`) || binaries(name).some((bin) => new RegExp(`(^|[\\s"'&;(])${bin}(\\s|$|["'])`, 'm').test(run));
    const directlyUsed = declared.filter((name) => imported(name) || typed(name) || runs(name));
    const peers = new Set(
      directlyUsed.flatMap((name) => {
        const { peerDependencies = {}, peerDependenciesMeta = {} } = installed(name);
        return Object.keys(peerDependencies).filter((peer) => peerDependenciesMeta[peer]?.optional !== true);
      }),
    );
    return declared.filter((name) => !directlyUsed.includes(name) && !peers.has(name)).map((name) => `${dir}/package.json → ${name}`);
  });
}

it('every declared dependency is used', () => {
  expect(unusedDependencies()).toEqual([]);
});
