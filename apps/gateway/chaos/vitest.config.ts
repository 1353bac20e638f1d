import { defineConfig } from 'vitest/config';

// The chaos run is one long scenario (root `pnpm test:chaos`), kept out of the unit suite's include.
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['chaos.test.ts'],
    maxWorkers: 1,
    // The figures are the product of the run: print them as they come, not only on failure.
    silent: false,
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  },
});
