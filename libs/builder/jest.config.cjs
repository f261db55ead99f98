// The builder's tests (libs/builder/test): built homes checked with the git CLI, SQLite and key files.
module.exports = { ...require('../../jest.preset.cjs'), displayName: 'builder', rootDir: __dirname, roots: ['<rootDir>/test'] };
