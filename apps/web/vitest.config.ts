import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The browser test builds the app and starts a gateway and Chromium; the limits catch a hang,
    // they do not time it (beside the other suites on two cores a step can take a minute).
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
