module.exports = { ...require('../../jest.preset.cjs'), displayName: 'storage', rootDir: __dirname };
