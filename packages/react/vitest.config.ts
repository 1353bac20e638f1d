import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    // A DOM for the hooks; the gateway runs in the main process (test/global-setup.ts), where
    // Node's own fetch and web streams serve it.
    environment: 'happy-dom',
    // The page (happy-dom's default origin) and the gateway differ: requests go through CORS, as
    // in a browser, and the gateway answers it.
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
