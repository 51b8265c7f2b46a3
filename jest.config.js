/** Jest: @swc/jest strips types (no type check — `npm run typecheck` does that) and emits CommonJS. */
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  // Fixture repos are indexer inputs: their own *.test.ts files and package.json are not ours.
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/fixtures/'],
  modulePathIgnorePatterns: ['<rootDir>/test/fixtures/', '<rootDir>/dist/'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
        module: { type: 'commonjs' },
        sourceMaps: 'inline',
      },
    ],
  },
  moduleFileExtensions: ['ts', 'js', 'json', 'node'],
  // Says once, before any test, which real tools (redis-server, language servers, Chromium, …) are missing.
  globalSetup: '<rootDir>/test/setup/requirements.ts',
  // The index/status end-to-end tests build real repos and run the real addon: give them room.
  testTimeout: 120000,
};
