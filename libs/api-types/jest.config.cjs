module.exports = { ...require('../../jest.preset.cjs'), displayName: 'api-types', rootDir: __dirname };
