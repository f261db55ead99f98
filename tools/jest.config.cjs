// Library tier: the builder and the repository-wide rules (tools/test, without the scale tier).
module.exports = {
  ...require('../jest.preset.cjs'),
  displayName: 'tools',
  rootDir: __dirname,
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/scale/'],
};
