import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The browser test builds the app and starts a gateway and Chromium: generous limits.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
