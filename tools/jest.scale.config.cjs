// Scale tier: the libraries packed and installed into another project (slow: builds SQLite).
module.exports = { ...require('../jest.preset.cjs'), displayName: 'tools-scale', rootDir: __dirname, roots: ['<rootDir>/test/scale'] };
