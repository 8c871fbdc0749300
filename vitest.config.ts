import { defineConfig } from 'vitest/config';

// Two projects, run together by `npm test`: the tests that start processes (the compiled command,
// servers, the compiler, the language server, the benchmark) are the slow ones, and are scheduled
// first so that a fresh clone, with no record of how long each file takes, does not start them last.
/** Test files that replace a module with vi.mock. */
const MOCKING = ['test/curation-hostile.test.ts', 'test/browser-zip-rebuild.test.ts'];

export default defineConfig({
  test: {
    // Vitest leaves a core free by default, which on a 2-core machine runs every file in turn; the
    // tests spend much of their time waiting on the processes they start, so every core runs them.
    maxWorkers: '100%',
    // Test files share their worker's modules instead of importing the project again each: no test
    // keeps state in a module, and the imports were a tenth of the suite's time.
    isolate: false,
    // Each test file's temporary folders are removed after it (test/setup.ts).
    setupFiles: ['test/setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      // One Chromium for the browser tests of the whole run (test/browser-setup.ts).
      { extends: true, test: { name: 'processes', include: ['test/**/*.e2e.test.ts'], globalSetup: ['test/browser-setup.ts'] } },
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: ['test/**/*.e2e.test.ts', ...MOCKING] } },
      // A file that mocks a module must import the code afresh, or the mock misses a module another file loaded first.
      { extends: true, test: { name: 'mocking', include: MOCKING, isolate: true } },
    ],
  },
});
