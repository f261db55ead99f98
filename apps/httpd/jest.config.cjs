// Unit tier: the app's pure modules and services, next to the code (apps/httpd/src).
module.exports = { ...require('../../jest.preset.cjs'), displayName: 'httpd', rootDir: __dirname, roots: ['<rootDir>/src'] };
