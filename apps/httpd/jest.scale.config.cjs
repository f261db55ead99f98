// Scale tier: end-to-end behaviour on large generated homes (thousands of objects), slower.
module.exports = { ...require('../../jest.preset.cjs'), displayName: 'httpd-scale', rootDir: __dirname, roots: ['<rootDir>/test/scale'] };
