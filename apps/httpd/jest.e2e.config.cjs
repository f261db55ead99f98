// End-to-end tier: the real server over HTTP on node homes written by the builder (apps/httpd/test),
// without the scale tier.
module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'httpd-e2e',
  rootDir: __dirname,
  roots: ['<rootDir>/test'],
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/scale/'],
  // Two spec files at once whatever the core count (jest's default is one fewer than the
  // cores: one on CI's two). Much of a spec's time is spent waiting on git, child servers and
  // sockets, so a second file fills it; the tier takes about two thirds of the time.
  maxWorkers: 2,
  // A worker grows past a gigabyte over the files it runs, and every git process a spec starts
  // forks the whole worker: one past this size after a file is replaced by a fresh one.
  workerIdleMemoryLimit: '700MB',
};
