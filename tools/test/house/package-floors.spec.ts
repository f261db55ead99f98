// The packages stand on floors (ARCHITECTURE.md): a package's code (not its tests) imports only
// workspace packages on lower floors. The server uses the builder for its demo home, never the
// benchmarks, fuzzer or diff oracle of tools/; and no library reaches up to the builder.
import { workspaceSources } from './workspace-sources.js';

const FLOORS: Record<string, number> = {
  'bounded-cache': 0,
  diff: 0,
  'api-types': 0,
  identity: 1,
  storage: 2,
  cob: 3,
  builder: 4,
  httpd: 5,
  tools: 5,
};

const packageName = (dir: string): string => dir.split('/').pop() ?? dir;
const isTest = (path: string): boolean => /\.(spec|testing)\.ts$/.test(path) || /\/test\//.test(path);

it('every package is on a floor', () => {
  const packages = new Set(workspaceSources().map((file) => packageName(file.pkg)));
  expect([...packages].filter((name) => FLOORS[name] === undefined)).toEqual([]);
});

it('no package code imports a package on its own floor or above', () => {
  const offending = workspaceSources()
    .filter((file) => !isTest(file.path))
    .flatMap((file) => {
      const own = packageName(file.pkg);
      return file.imports
        .filter((edge) => edge.specifier.startsWith('@forge-httpd/'))
        .map((edge) => edge.specifier.slice('@forge-httpd/'.length).split('/')[0] ?? '')
        .filter((target) => target !== own && (FLOORS[target] ?? Infinity) >= (FLOORS[own] ?? -1))
        .map((target) => `${file.path} → @forge-httpd/${target}`);
    });
  expect(offending).toEqual([]);
});
