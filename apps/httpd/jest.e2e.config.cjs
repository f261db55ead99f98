// End-to-end tier: the real server over HTTP on node homes written by the builder (apps/httpd/test),
// without the scale tier.
module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'httpd-e2e',
  rootDir: __dirname,
  roots: ['<rootDir>/test'],
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/scale/'],
};
