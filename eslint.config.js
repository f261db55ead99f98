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
  prettier,
);
