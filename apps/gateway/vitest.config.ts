import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PGlite boots a WASM PostgreSQL per test file; two cores are shared by the whole team.
    maxWorkers: 2,
  },
});
