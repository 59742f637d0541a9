// Two projects: `unit` (pure, no infrastructure) and `integration` (real RabbitMQ and MongoDB-wire server,
// started once per run by scripts/test.sh or by the global setup below).
const transform = { '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } } }] };
const roots = ['<rootDir>/packages', '<rootDir>/services', '<rootDir>/tests'];

module.exports = {
  // Integration tests wait on real brokers and retries; a unit test never comes near this.
  testTimeout: 60000,
  // A worker process is replaced once a test file leaves it above this much memory: run in band, the
  // suite's leftovers (services started in-process, their caches) grew one heap until it ran out near the
  // end (4 GB, most of the time in GC).
  workerIdleMemoryLimit: '1200MB',
  // Two workers, the longest files first and the API fuzz alone at the end (decision 0209): with one
  // (jest's default in CI on 2 cores: cores - 1) the second core idled while files waited on I/O.
  maxWorkers: 2,
  testSequencer: '<rootDir>/packages/testkit/jest/longest-first.js',
  projects: [
    {
      displayName: 'unit',
      roots,
      transform,
      testEnvironment: 'node',
      testMatch: ['**/src/**/*.test.ts'],
    },
    {
      displayName: 'integration',
      roots,
      transform,
      testEnvironment: 'node',
      testMatch: ['**/test/**/*.test.ts'],
      globalSetup: '<rootDir>/packages/testkit/src/global-setup.ts',
    },
  ],
};
