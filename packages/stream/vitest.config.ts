import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The session and video task tests run against a real gateway (test/global-setup.ts).
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 120_000,
    // Test files share a worker's modules (no test mocks one): 38 s of CPU for the suite against
    // 48 s with each file importing afresh.
    isolate: false,
  },
});
