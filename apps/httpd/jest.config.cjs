module.exports = { ...require('../../jest.preset.cjs'), displayName: 'httpd', rootDir: __dirname };
