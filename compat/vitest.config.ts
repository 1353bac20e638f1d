import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // A client session against a demo-mode gateway takes seconds; an agent CLI's, tens of seconds.
    testTimeout: 120_000,
    hookTimeout: 240_000,
    // Each file starts its own gateway and simulator; two cores are shared with the rest of the run.
    maxWorkers: 2,
  },
});
