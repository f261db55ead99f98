// Shared jest settings: TypeScript through @swc/jest as native ESM (run with
// --experimental-vm-modules), workspace packages mapped to their sources so tests
// never need a build.
const path = require('node:path');
const root = __dirname;

module.exports = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
        },
        module: { type: 'es6' },
      },
    ],
  },
  transformIgnorePatterns: ['/node_modules/'],
  moduleNameMapper: {
    '^@forge-httpd/(bounded-cache|identity|storage|cob|diff|api-types|builder)$': path.join(root, 'libs/$1/src/index.ts'),
    '^@forge-httpd/(storage|cob)/write$': path.join(root, 'libs/$1/src/write.ts'),
    '^@forge-httpd/storage/testing$': path.join(root, 'libs/storage/src/testing.ts'),
    '^@forge-httpd/builder/scratch$': path.join(root, 'libs/builder/src/scratch.ts'),
    '^@forge-httpd/tools/fuzz$': path.join(root, 'tools/src/fuzz/fuzz-requests.ts'),
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testMatch: ['**/*.spec.ts'],
  testTimeout: 30000,
};
