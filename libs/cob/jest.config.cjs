module.exports = { ...require('../../jest.preset.cjs'), displayName: 'cob', rootDir: __dirname };
