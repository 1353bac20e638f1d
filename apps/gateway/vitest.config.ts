import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 200_000,
    // PGlite boots a WASM PostgreSQL per test file; two cores are shared by the whole team.
    maxWorkers: 2,
    // The AWS SDK (S3 storage tests) warns on Node 20 that its releases after January 2027 need
    // Node 22; the pinned version supports 20, so the warning is only noise in test output.
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  },
});
