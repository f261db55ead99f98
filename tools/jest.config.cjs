module.exports = { ...require('../jest.preset.cjs'), displayName: 'tools', rootDir: __dirname };
