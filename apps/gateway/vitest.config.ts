import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 200_000,
    // PGlite boots a WASM PostgreSQL per test file; two cores are shared by the whole team.
    maxWorkers: 2,
    // Test files share a worker's module graph instead of importing the gateway again each: the
    // import was about 5.8 s of a file's time on a 2-core AMD EPYC, and no test mocks a module or
    // keeps state in one. The suite alone, beside PostgreSQL: 825 s isolated, 590 s shared (with the
    // PGlite template of test/support/pglite-template.ts).
    isolate: false,
    // The AWS SDK (S3 storage tests) warns on Node 20 that its releases after January 2027 need
    // Node 22; the pinned version supports 20, so the warning is only noise in test output.
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  },
});
