// Lint: typescript-eslint's type-aware rules over every package, the one-way package graph as
// Nx module boundaries, and nothing that Prettier decides (formatting is Prettier's alone).
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'bench-results/**', 'tools/bench/schema-libraries/**', '**/*.cjs', '**/*.js'] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { '@nx': nx },
  },
  {
    // The one-way package graph (ARCHITECTURE.md): bounded-cache ← identity ← storage ← cob ←
    // builder; diff and api-types alone; the app and the tools on top, the app without the
    // tools. Specs and test helpers may reach across (a library's tests use the builder).
    files: ['**/*.ts'],
    ignores: ['**/*.spec.ts', '**/*.testing.ts', '**/test/**'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: [],
          depConstraints: [
            { sourceTag: 'scope:bounded-cache', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'scope:identity', onlyDependOnLibsWithTags: ['scope:bounded-cache'] },
            { sourceTag: 'scope:storage', onlyDependOnLibsWithTags: ['scope:bounded-cache', 'scope:identity'] },
            { sourceTag: 'scope:cob', onlyDependOnLibsWithTags: ['scope:bounded-cache', 'scope:identity', 'scope:storage'] },
            { sourceTag: 'scope:diff', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'scope:api-types', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'scope:builder', onlyDependOnLibsWithTags: ['scope:bounded-cache', 'scope:identity', 'scope:storage', 'scope:cob'] },
            {
              sourceTag: 'type:tools',
              onlyDependOnLibsWithTags: [
                'scope:bounded-cache',
                'scope:identity',
                'scope:storage',
                'scope:cob',
                'scope:diff',
                'scope:api-types',
                'scope:builder',
              ],
            },
            {
              sourceTag: 'type:app',
              onlyDependOnLibsWithTags: [
                'scope:bounded-cache',
                'scope:identity',
                'scope:storage',
                'scope:cob',
                'scope:diff',
                'scope:api-types',
                'scope:builder',
              ],
            },
          ],
        },
      ],
    },
  },
  {
    rules: {
      // Interface methods return promises whether or not their body awaits (CobKind.evaluate,
      // GitRepository.close, …); marking them async is how the code keeps one shape.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    // Jest's asymmetric matchers (expect.objectContaining, expect.any) are typed `any`, and specs
    // pass methods to expect() unbound on purpose.
    files: ['**/*.spec.ts', '**/test/support/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  prettier,
);
