// A relative import stays inside its own package, in every file (tests and helpers included):
// what another package offers is reached through its entry points (package.json `exports`),
// so a package's insides can move without breaking its neighbours.
import { workspaceSources } from './workspace-sources.js';

it('no relative import leaves its package', () => {
  const offending = workspaceSources().flatMap((file) =>
    file.imports
      .filter((edge) => edge.specifier.startsWith('.') && edge.target !== null && !edge.target.startsWith(`${file.pkg}/`))
      .map((edge) => `${file.path} → ${edge.specifier}`),
  );
  expect(offending).toEqual([]);
});

it('finds the files it checks', () => {
  const packages = new Set(workspaceSources().map((file) => file.pkg));
  expect([...packages].sort()).toEqual(expect.arrayContaining(['apps/httpd', 'libs/builder', 'libs/storage', 'tools']));
  expect(workspaceSources().some((file) => file.pkg === '')).toBe(false);
});
