module.exports = { ...require('../../jest.preset.cjs'), displayName: 'bounded-cache', rootDir: __dirname };
