module.exports = { ...require('../../jest.preset.cjs'), displayName: 'diff', rootDir: __dirname };
